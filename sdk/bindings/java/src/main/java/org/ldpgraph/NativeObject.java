package org.ldpgraph;

import java.lang.ref.Cleaner;
import java.util.function.LongConsumer;

/**
 * A native handle owned by a Java object: freed by {@link #close()}, or by
 * the cleaner once the object is unreachable if a caller forgets. After
 * close every method throws {@link IllegalStateException}. close() must not
 * race with another call on the same object.
 */
abstract class NativeObject implements AutoCloseable {
  static {
    System.loadLibrary("ldpgraph_jni");
  }

  private static final Cleaner CLEANER = Cleaner.create();

  /** What the cleaner runs: it must not reach the object it cleans. */
  private static final class Release implements Runnable {
    private long handle;
    private final LongConsumer free;

    Release(long handle, LongConsumer free) {
      this.handle = handle;
      this.free = free;
    }

    @Override
    public synchronized void run() {
      if (handle != 0) {
        free.accept(handle);
        handle = 0;
      }
    }

    synchronized long get() {
      return handle;
    }
  }

  private final Release release;
  private final Cleaner.Cleanable cleanable;
  private final String name;

  NativeObject(long handle, LongConsumer free, String name) {
    if (handle == 0) throw new IllegalStateException(name + ": the native library returned no object");
    this.release = new Release(handle, free);
    this.cleanable = CLEANER.register(this, release);
    this.name = name;
  }

  /** The live handle; IllegalStateException once closed. */
  final long handle() {
    long h = release.get();
    if (h == 0) throw new IllegalStateException(name + " is closed");
    return h;
  }

  final boolean isClosed() {
    return release.get() == 0;
  }

  /** Frees the native object; later calls to close do nothing. */
  @Override
  public final void close() {
    cleanable.clean();
  }
}
