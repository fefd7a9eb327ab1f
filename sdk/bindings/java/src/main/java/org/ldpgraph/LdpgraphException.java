package org.ldpgraph;

/**
 * A failure of the native library: its status code (the C ABI's
 * {@code ldpgraph_status}) and its message. Bad arguments are refused before
 * they reach native code, with {@link IllegalArgumentException}; a closed
 * object with {@link IllegalStateException}.
 */
public final class LdpgraphException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public static final int INVALID_ARGUMENT = 1;
  public static final int OUT_OF_RANGE = 2;
  public static final int FAILED_PRECONDITION = 3;
  /** The ledger's epsilon cap, or a full upload queue. */
  public static final int RESOURCE_EXHAUSTED = 4;
  /** A corrupt stored ledger or queue. */
  public static final int DATA_LOSS = 5;
  /** OS randomness, storage or the network failed; retrying may help. */
  public static final int UNAVAILABLE = 6;
  public static final int INTERNAL = 7;

  private final int code;

  public LdpgraphException(int code, String message) {
    super(message);
    this.code = code;
  }

  /** The C ABI's status code, one of the constants above. */
  public int code() {
    return code;
  }
}
