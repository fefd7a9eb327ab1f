package org.ldpgraph;

import java.util.Arrays;

/**
 * One user's true data, as her device holds it: her id, her friends' ids,
 * her features (when the graph collects them) and her label (when it does).
 * Immutable; the arrays are copied in.
 */
public final class UserData {
  final int userId;
  final int[] neighbours;
  final double[] features;  // null: none
  final boolean hasLabel;
  final int label;

  private UserData(int userId, int[] neighbours, double[] features, boolean hasLabel, int label) {
    this.userId = userId;
    this.neighbours = neighbours;
    this.features = features;
    this.hasLabel = hasLabel;
    this.label = label;
  }

  /** A user with her friend list. Ids are non-negative, friends distinct. */
  public static UserData of(int userId, int[] neighbours) {
    if (userId < 0) throw new IllegalArgumentException("userId = " + userId + " is negative");
    if (neighbours == null) throw new IllegalArgumentException("neighbours must not be null");
    for (int i = 0; i < neighbours.length; i++) {
      if (neighbours[i] < 0) {
        throw new IllegalArgumentException("neighbours[" + i + "] = " + neighbours[i] + " is negative");
      }
    }
    return new UserData(userId, neighbours.clone(), null, false, 0);
  }

  /** The same user with her features (each finite). */
  public UserData withFeatures(double[] values) {
    if (values == null) throw new IllegalArgumentException("features must not be null");
    for (int i = 0; i < values.length; i++) {
      if (!Double.isFinite(values[i])) {
        throw new IllegalArgumentException("features[" + i + "] = " + values[i] + " is not finite");
      }
    }
    return new UserData(userId, neighbours, values.clone(), hasLabel, label);
  }

  /** The same user with her label (a class, non-negative). */
  public UserData withLabel(int value) {
    if (value < 0) throw new IllegalArgumentException("label = " + value + " is negative");
    return new UserData(userId, neighbours, features, true, value);
  }

  @Override
  public String toString() {
    return "UserData{user=" + userId + ", neighbours=" + Arrays.toString(neighbours) + "}";
  }
}
