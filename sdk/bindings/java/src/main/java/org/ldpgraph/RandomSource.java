package org.ldpgraph;

/**
 * Where a device's randomness comes from. {@link #os()} reads the operating
 * system's CSPRNG, as every report a device sends must.
 * {@link #seededNotPrivate(long)} repeats its draws from a seed: for tests
 * and golden vectors only, never for real data. Not thread-safe: one per
 * thread.
 */
public final class RandomSource extends NativeObject {
  private RandomSource(long handle) {
    super(handle, RandomSource::nativeFree, "RandomSource");
  }

  /** The OS CSPRNG (getrandom). LdpgraphException UNAVAILABLE if the OS has none. */
  public static RandomSource os() {
    return new RandomSource(nativeOs());
  }

  /** NOT PRIVATE: draws anyone can repeat from the seed. For tests. */
  public static RandomSource seededNotPrivate(long seed) {
    return new RandomSource(nativeSeeded(seed));
  }

  private static native long nativeOs();

  private static native long nativeSeeded(long seed);

  private static native void nativeFree(long handle);
}
