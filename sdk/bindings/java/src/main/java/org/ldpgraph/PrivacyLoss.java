package org.ldpgraph;

/**
 * What one graph has cost its user (BudgetLedger.loss), for an app to show:
 * for a graph reported in rounds, the loss of the distinct values its
 * memoised reports revealed, beside what fresh noise every round would have
 * spent.
 */
public final class PrivacyLoss {
  /** Spent: for rounds, edges + features + label. */
  public final double epsilon;
  /** What fresh noise every round would have spent. */
  public final double naiveEpsilon;
  /** Rounds reported (1 for a one-shot report). */
  public final long rounds;
  public final long lastRound;
  /** The parts of epsilon, for a graph in rounds (0 otherwise). */
  public final double edgesEpsilon;
  public final double featuresEpsilon;
  public final double labelEpsilon;

  PrivacyLoss(double[] v) {
    epsilon = v[0];
    naiveEpsilon = v[1];
    rounds = (long) v[2];
    lastRound = (long) v[3];
    edgesEpsilon = v[4];
    featuresEpsilon = v[5];
    labelEpsilon = v[6];
  }

  @Override
  public String toString() {
    return "epsilon " + epsilon + " over " + rounds + " rounds (fresh noise would have spent " + naiveEpsilon + ")";
  }
}
