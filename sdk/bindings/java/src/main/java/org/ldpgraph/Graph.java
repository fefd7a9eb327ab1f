package org.ldpgraph;

/**
 * A graph's public configuration (its privacy policy) with its mechanisms:
 * what a device needs to randomize her data and build her report. Get it
 * from the daemon's binary configuration ({@link #fromConfig(byte[])}, the
 * bytes of {@code Uploader.fetchConfig}), or build one from parameters
 * ({@link Builder}). Thread-safe: threads may share one graph, each with its
 * own {@link RandomSource}.
 */
public final class Graph extends NativeObject {
  private Graph(long handle) {
    super(handle, Graph::nativeFree, "Graph");
  }

  /** The graph of the daemon's binary configuration. LdpgraphException INVALID_ARGUMENT names what does not decode. */
  public static Graph fromConfig(byte[] config) {
    if (config == null) throw new IllegalArgumentException("config must not be null");
    return new Graph(nativeFromConfig(config));
  }

  /** Parameters of a graph: DPRR at epsilon 1 by default, no features, no label. */
  public static final class Builder {
    private long graphId;
    private int numUsers;
    private int nMax;
    private EdgeMechanism mechanism = EdgeMechanism.DPRR;
    private boolean fixedAllocation;
    private double edgeEpsilon = 1;
    private int featureDims;
    private double featureEpsilon = 1;
    private double featureLow = 0;
    private double featureHigh = 1;
    private int classes;
    private double labelEpsilon = 1;

    public Builder(long graphId, int numUsers) {
      if (graphId < 0) throw new IllegalArgumentException("graphId = " + graphId + " is negative");
      if (numUsers < 2) throw new IllegalArgumentException("numUsers = " + numUsers + ": a graph needs at least 2");
      this.graphId = graphId;
      this.numUsers = numUsers;
    }

    public Builder edges(EdgeMechanism m, double epsilon) {
      if (m == null) throw new IllegalArgumentException("mechanism must not be null");
      mechanism = m;
      edgeEpsilon = epsilon;
      return this;
    }

    /** The reference code's fixed 1:9 budget split for DPRR instead of the paper's eq. 8. */
    public Builder fixedAllocation() {
      fixedAllocation = true;
      return this;
    }

    /** The public bound on a graph's users in the deployment (0: numUsers). */
    public Builder nMax(int value) {
      if (value < 0) throw new IllegalArgumentException("nMax = " + value + " is negative");
      nMax = value;
      return this;
    }

    /** Multi-bit features: dims values in [low, high], epsilon for all of them. */
    public Builder features(int dims, double epsilon, double low, double high) {
      if (dims < 1) throw new IllegalArgumentException("feature dims = " + dims + ": at least 1");
      featureDims = dims;
      featureEpsilon = epsilon;
      featureLow = low;
      featureHigh = high;
      return this;
    }

    /** A label of `classes` classes through k-ary randomized response. */
    public Builder label(int classes, double epsilon) {
      if (classes < 2) throw new IllegalArgumentException("classes = " + classes + ": at least 2");
      this.classes = classes;
      labelEpsilon = epsilon;
      return this;
    }

    /** LdpgraphException INVALID_ARGUMENT for what the mechanisms refuse (an epsilon not positive, ...). */
    public Graph build() {
      return new Graph(nativeCreate(graphId, numUsers, nMax, mechanism.code, fixedAllocation ? 1 : 0, edgeEpsilon,
                                    featureDims, featureEpsilon, featureLow, featureHigh, classes, labelEpsilon));
    }
  }

  public long id() {
    return nativeId(handle());
  }

  public int numUsers() {
    return nativeNumUsers(handle());
  }

  /** An embedding graph's embedding columns (BudgetLedger.reportEmbedding); 0 for a graph of users' reports. */
  public int embeddingDims() {
    return nativeEmbeddingDims(handle());
  }

  /** Her friend list through the graph's edge mechanism (not LocalLap's, which outputs no list). */
  public int[] perturbEdges(RandomSource rng, int userId, int[] neighbours) {
    checkRng(rng);
    if (userId < 0) throw new IllegalArgumentException("userId = " + userId + " is negative");
    if (neighbours == null) throw new IllegalArgumentException("neighbours must not be null");
    return nativePerturbEdges(handle(), rng.handle(), userId, neighbours);
  }

  /** Her features through the multi-bit encoder: the sampled dimensions and their signs. */
  public EncodedFeatures encodeFeatures(RandomSource rng, double[] features) {
    checkRng(rng);
    if (features == null) throw new IllegalArgumentException("features must not be null");
    int[] pairs = nativeEncodeFeatures(handle(), rng.handle(), features);
    int[] index = new int[pairs.length / 2];
    byte[] sign = new byte[pairs.length / 2];
    for (int i = 0; i < index.length; i++) {
      index[i] = pairs[2 * i];
      sign[i] = (byte) pairs[2 * i + 1];
    }
    return new EncodedFeatures(index, sign);
  }

  /** Her label through k-ary randomized response. */
  public int perturbLabel(RandomSource rng, int label) {
    checkRng(rng);
    if (label < 0) throw new IllegalArgumentException("label = " + label + " is negative");
    return nativePerturbLabel(handle(), rng.handle(), label);
  }

  /**
   * Her report, randomized now and encoded (wire format v1). Every call
   * spends her budget again: a device keeps its reports in a {@link BudgetLedger}.
   */
  public byte[] buildReport(RandomSource rng, UserData user) {
    checkRng(rng);
    if (user == null) throw new IllegalArgumentException("user must not be null");
    return nativeBuildReport(handle(), rng.handle(), user.userId, user.neighbours, user.features, user.hasLabel,
                             user.label);
  }

  static void checkRng(RandomSource rng) {
    if (rng == null) throw new IllegalArgumentException("rng must not be null");
  }

  /** The multi-bit encoder's output: sampled dimensions and their signs (+1 or -1). */
  public static final class EncodedFeatures {
    public final int[] index;
    public final byte[] sign;

    EncodedFeatures(int[] index, byte[] sign) {
      this.index = index;
      this.sign = sign;
    }
  }

  private static native long nativeCreate(long graphId, int numUsers, int nMax, int mechanism, int allocation,
                                          double edgeEpsilon, int featureDims, double featureEpsilon,
                                          double featureLow, double featureHigh, int classes, double labelEpsilon);

  private static native long nativeFromConfig(byte[] config);

  private static native void nativeFree(long handle);

  private static native long nativeId(long handle);

  private static native int nativeNumUsers(long handle);

  private static native int nativeEmbeddingDims(long handle);

  private static native int[] nativePerturbEdges(long graph, long rng, int user, int[] neighbours);

  private static native int[] nativeEncodeFeatures(long graph, long rng, double[] features);

  private static native int nativePerturbLabel(long graph, long rng, int label);

  private static native byte[] nativeBuildReport(long graph, long rng, int user, int[] neighbours,
                                                 double[] features, boolean hasLabel, int label);
}
