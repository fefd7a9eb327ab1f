package org.ldpgraph;

import java.nio.file.Path;

/**
 * Never randomize the same data twice: the first report for a graph is
 * recorded (durably, in a file of the app's storage) before it is returned,
 * and asking again returns the same bytes. It also sums the epsilon spent and
 * refuses a report past an optional cap. Thread-safe (it locks).
 */
public final class BudgetLedger extends NativeObject {
  private BudgetLedger(long handle) {
    super(handle, BudgetLedger::nativeFree, "BudgetLedger");
  }

  /**
   * The ledger kept in `file` (created if absent). `epsilonCap`: the total
   * budget over all graphs, Double.POSITIVE_INFINITY for none.
   * LdpgraphException DATA_LOSS for a corrupt file, UNAVAILABLE when it cannot be read.
   */
  public static BudgetLedger openFile(Path file, double epsilonCap) {
    if (file == null) throw new IllegalArgumentException("file must not be null");
    if (!(epsilonCap > 0)) throw new IllegalArgumentException("epsilonCap = " + epsilonCap + " must be positive");
    return new BudgetLedger(nativeOpenFile(file.toString(), epsilonCap));
  }

  /** The epsilon of every report recorded, summed. */
  public double spent() {
    return nativeSpent(handle());
  }

  /**
   * Her report for `graph`: the bytes recorded before if there are any,
   * otherwise a new report, recorded before it is returned.
   * LdpgraphException RESOURCE_EXHAUSTED past the cap.
   */
  public byte[] report(Graph graph, RandomSource rng, UserData user) {
    if (graph == null) throw new IllegalArgumentException("graph must not be null");
    Graph.checkRng(rng);
    if (user == null) throw new IllegalArgumentException("user must not be null");
    return nativeReport(handle(), graph.handle(), rng.handle(), user.userId, user.neighbours, user.features,
                        user.hasLabel, user.label);
  }

  /**
   * Her memoised report for round `round` of `graph` (docs/rounds.md): every
   * random choice is a permanent coin of the graph's secret key, kept in this
   * ledger, so unchanged data sends the same report and spends nothing more.
   * The same round again returns the same bytes. LdpgraphException
   * FAILED_PRECONDITION for an earlier round, a graph reported with
   * report(), or a changed policy; RESOURCE_EXHAUSTED past the cap.
   */
  public byte[] reportRound(Graph graph, RandomSource rng, UserData user, long round) {
    if (graph == null) throw new IllegalArgumentException("graph must not be null");
    Graph.checkRng(rng);
    if (user == null) throw new IllegalArgumentException("user must not be null");
    if (round < 0) throw new IllegalArgumentException("round = " + round + " must not be negative");
    return nativeReportRound(handle(), graph.handle(), rng.handle(), user.userId, user.neighbours, user.features,
                             user.hasLabel, user.label, round);
  }

  /**
   * The one report of an embedding graph (GW-LDP, docs/gw.md): its owner's node
   * embeddings, row after row (rows x dims values, each in [0, 1]), through the
   * graph's encoder, with the graph's class by randomized response when the graph
   * asks for one (label; null when it does not). The summary encoding takes any
   * number of rows and sends one grid cell, so the graph's size stays private; the
   * multi-bit encoding needs the graph's n rows. Recorded like report(): a retry
   * returns the same bytes and spends nothing. LdpgraphException
   * FAILED_PRECONDITION for a graph of users' reports, INVALID_ARGUMENT or
   * OUT_OF_RANGE for bad embeddings, RESOURCE_EXHAUSTED past the cap.
   */
  public byte[] reportEmbedding(Graph graph, RandomSource rng, double[] embeddings, int dims, Integer label) {
    if (graph == null) throw new IllegalArgumentException("graph must not be null");
    Graph.checkRng(rng);
    if (embeddings == null) throw new IllegalArgumentException("embeddings must not be null");
    return nativeReportEmbedding(handle(), graph.handle(), rng.handle(), embeddings, dims, label != null,
                                 label == null ? 0 : label);
  }

  /** What `graphId` has cost so far. LdpgraphException FAILED_PRECONDITION if it has no report. */
  public PrivacyLoss loss(long graphId) {
    return new PrivacyLoss(nativeLoss(handle(), graphId));
  }

  private static native long nativeOpenFile(String path, double epsilonCap);

  private static native void nativeFree(long handle);

  private static native double nativeSpent(long handle);

  private static native byte[] nativeReport(long ledger, long graph, long rng, int user, int[] neighbours,
                                            double[] features, boolean hasLabel, int label);

  private static native byte[] nativeReportRound(long ledger, long graph, long rng, int user, int[] neighbours,
                                                 double[] features, boolean hasLabel, int label, long round);

  private static native byte[] nativeReportEmbedding(long ledger, long graph, long rng, double[] embeddings, int dims,
                                                     boolean hasLabel, int label);

  private static native double[] nativeLoss(long ledger, long graphId);
}
