// What an attack's AUC may reach under differential privacy, and how sure a
// measured AUC is.
//
// The hypothesis-testing view of DP (Kairouz, Oh and Viswanath 2015): a
// mechanism is (epsilon, delta)-DP exactly when no test between two
// neighbouring inputs has a true-positive rate above
//   min(1, e^epsilon FPR + delta, 1 - e^-epsilon (1 - delta - FPR))
// at any false-positive rate FPR. The attack's ROC curve lies under that
// curve, so its AUC is at most the area under it; with delta = 0 the area
// is e^epsilon / (1 + e^epsilon), the logistic function of epsilon.
#ifndef LDPGRAPH_DAEMON_AUDIT_AUC_BOUNDS_H_
#define LDPGRAPH_DAEMON_AUDIT_AUC_BOUNDS_H_

#include <cstdint>

namespace ldpgraph {

// The largest AUC of any test between neighbouring inputs of an
// (epsilon, delta)-DP mechanism: 1 for epsilon inf, 0.5 for (0, 0).
// Requires epsilon >= 0 and delta in [0, 1].
double MaxAucUnderDp(double epsilon, double delta);

// Group privacy: what (epsilon, delta)-DP guarantees for inputs `k` steps
// apart, (k epsilon, k e^((k-1) epsilon) delta): e.g. one edge under
// node-level DP (remove the node, add it back without the edge) is k = 2.
struct DpGuarantee {
  double epsilon = 0, delta = 0;
};
DpGuarantee GroupPrivacy(double epsilon, double delta, int k);

// A confidence interval for an AUC measured over `positives` and
// `negatives` scores: the wider of two. Hanley and McNeil's (1982) normal
// approximation is the tighter in the middle but has no width at an AUC of
// 0 or 1; the Clopper-Pearson interval of AUC x m successes in m trials,
// m = min(positives, negatives), is what pairing each positive with its
// own negative would give (exact for that paired test, whose count is
// binomial) and stays honest at the ends. Clamped to [0, 1]; `z` = 1.96 for
// 95% (each end wrong with probability 2.5%).
struct AucInterval {
  double low = 0, high = 1;
};
AucInterval AucConfidenceInterval(double auc, std::uint64_t positives, std::uint64_t negatives, double z = 1.96);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_AUDIT_AUC_BOUNDS_H_
