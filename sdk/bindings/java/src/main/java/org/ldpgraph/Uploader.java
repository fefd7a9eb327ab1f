package org.ldpgraph;

import java.nio.file.Path;

/**
 * The SDK's TLS uploader: the daemon's certificate verified (the system's
 * CAs or a pinned CA), retries with backoff and jitter honouring
 * Retry-After, the same bytes resent so a retry is never counted twice, and
 * an optional on-disk queue (in the app's storage) that survives a restart.
 * Needs the JNI library built with the transport. Not thread-safe: one per
 * thread.
 */
public final class Uploader extends NativeObject {
  /** Where and how to upload. */
  public static final class Options {
    final String host;
    final int port;
    String caFile;
    String queueDir;
    long maxQueuedReports;
    long maxQueuedBytes;
    int maxRetryMs;

    /** The daemon's name or address (its certificate must match) and port. */
    public Options(String host, int port) {
      if (host == null || host.isEmpty()) throw new IllegalArgumentException("host must not be empty");
      if (port <= 0 || port > 65535) throw new IllegalArgumentException("port = " + port + " is not in 1..65535");
      this.host = host;
      this.port = port;
    }

    /** A CA certificate (PEM) to pin instead of the system's. */
    public Options pinnedCa(Path pem) {
      if (pem == null) throw new IllegalArgumentException("pem must not be null");
      caFile = pem.toString();
      return this;
    }

    /** The on-disk queue's folder, and its bounds (0: 1024 reports, 16 MiB). */
    public Options queue(Path dir, long maxReports, long maxBytes) {
      if (dir == null) throw new IllegalArgumentException("dir must not be null");
      if (maxReports < 0 || maxBytes < 0) throw new IllegalArgumentException("queue bounds must not be negative");
      queueDir = dir.toString();
      maxQueuedReports = maxReports;
      maxQueuedBytes = maxBytes;
      return this;
    }

    /** The total retry time per report (0: 120 s). */
    public Options maxRetryMillis(int millis) {
      if (millis < 0) throw new IllegalArgumentException("millis = " + millis + " is negative");
      maxRetryMs = millis;
      return this;
    }
  }

  /** What a flush did. */
  public static final class FlushResult {
    public final long delivered;
    public final long refused;
    public final long remaining;

    FlushResult(long[] counts) {
      delivered = counts[0];
      refused = counts[1];
      remaining = counts[2];
    }
  }

  private Uploader(long handle) {
    super(handle, Uploader::nativeFree, "Uploader");
  }

  /** LdpgraphException for certificate files that cannot be read or a queue folder that cannot be opened. */
  public static Uploader create(Options o) {
    if (o == null) throw new IllegalArgumentException("options must not be null");
    return new Uploader(nativeCreate(o.host, o.port, o.caFile, o.queueDir, o.maxQueuedReports, o.maxQueuedBytes,
                                     o.maxRetryMs));
  }

  /** The graph's binary configuration (Graph.fromConfig reads it). FAILED_PRECONDITION for an unknown graph. */
  public byte[] fetchConfig(long graphId) {
    if (graphId < 0) throw new IllegalArgumentException("graphId = " + graphId + " is negative");
    return nativeFetchConfig(handle(), graphId);
  }

  /**
   * The round the graph takes reports of now: the round to pass
   * BudgetLedger.reportRound (0 for a graph collected once, reported with
   * BudgetLedger.report). It moves on when the daemon closes a round: fetch
   * it before each report. FAILED_PRECONDITION for an unknown graph.
   */
  public long fetchOpenRound(long graphId) {
    if (graphId < 0) throw new IllegalArgumentException("graphId = " + graphId + " is negative");
    return nativeFetchOpenRound(handle(), graphId);
  }

  /** The graph, from the daemon's configuration. */
  public Graph fetchGraph(long graphId) {
    return Graph.fromConfig(fetchConfig(graphId));
  }

  /**
   * Sends now, with retries; the final HTTP status (200: delivered, now or
   * before; a 4xx: refused for good). UNAVAILABLE when the retry time ran out.
   */
  public int send(String userToken, byte[] report) {
    checkToken(userToken);
    if (report == null) throw new IllegalArgumentException("report must not be null");
    return nativeSend(handle(), userToken, report);
  }

  /** Queues durably (RESOURCE_EXHAUSTED when the queue is full); flush() sends it. */
  public void enqueue(String userToken, byte[] report) {
    checkToken(userToken);
    if (report == null) throw new IllegalArgumentException("report must not be null");
    nativeEnqueue(handle(), userToken, report);
  }

  /** Sends the queue, oldest first. */
  public FlushResult flush() {
    return new FlushResult(nativeFlush(handle()));
  }

  public long queued() {
    return nativeQueued(handle());
  }

  /**
   * What the latest model covering graph `graphId` says about the user
   * `userToken` belongs to (the token decides whose). FAILED_PRECONDITION
   * while no model covers her yet, or for a token the daemon refuses.
   */
  public DeviceResult fetchResult(long graphId, String userToken) {
    if (graphId < 0) throw new IllegalArgumentException("graphId = " + graphId + " is negative");
    checkToken(userToken);
    return nativeFetchResult(handle(), graphId, userToken);
  }

  private static void checkToken(String token) {
    if (token == null || token.isEmpty()) throw new IllegalArgumentException("userToken must not be empty");
  }

  private static native long nativeCreate(String host, int port, String caFile, String queueDir, long maxReports,
                                          long maxBytes, int maxRetryMs);

  private static native void nativeFree(long handle);

  private static native byte[] nativeFetchConfig(long handle, long graphId);

  private static native long nativeFetchOpenRound(long handle, long graphId);

  private static native int nativeSend(long handle, String token, byte[] report);

  private static native void nativeEnqueue(long handle, String token, byte[] report);

  private static native long[] nativeFlush(long handle);

  private static native long nativeQueued(long handle);

  private static native DeviceResult nativeFetchResult(long handle, long graphId, String token);
}
