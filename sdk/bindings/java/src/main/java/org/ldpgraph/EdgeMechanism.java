package org.ldpgraph;

/** How a device randomizes her friend list, as the graph's policy says. */
public enum EdgeMechanism {
  /** A non-private user: she sends her true list. */
  NONE(0),
  /** Degree-preserving randomized response (Hidano and Murakami). */
  DPRR(1),
  /** Warner's randomized response on every bit. */
  RR(2),
  /** LocalLap's client part: a noisy degree, no list. */
  LOCAL_LAP(3),
  /** Randomized response with the degree (link LDP): the server denoises it ("rr-degree"). */
  RR_DEGREE(4);

  /**
   * The earlier name of {@link #RR_DEGREE}, kept for one release.
   *
   * @deprecated use {@link #RR_DEGREE}, the name every other face gives it ("rr-degree").
   */
  @Deprecated public static final EdgeMechanism RR_WITH_DEGREE = RR_DEGREE;

  final int code;

  EdgeMechanism(int code) {
    this.code = code;
  }
}
