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
  /** Randomized response with the degree (link LDP): the server denoises it. */
  RR_WITH_DEGREE(4);

  final int code;

  EdgeMechanism(int code) {
    this.code = code;
  }
}
