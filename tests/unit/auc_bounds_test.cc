// The AUC that (epsilon, delta)-DP allows: the area under the hypothesis-
// testing region's edge, checked against a numerical integral of that edge;
// and the AUC's confidence interval.
#include "audit/auc_bounds.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

using namespace ldpgraph;

namespace {

// The largest TPR at FPR x, integrated by the midpoint rule.
double IntegratedEdge(double epsilon, double delta) {
  const double e = std::exp(epsilon);
  const int steps = 200000;
  double area = 0;
  for (int i = 0; i < steps; ++i) {
    const double x = (i + 0.5) / steps;
    area += std::min({1.0, e * x + delta, 1 - (1 - delta - x) / e});
  }
  return area / steps;
}

}  // namespace

TEST_CASE("AucBounds.PureDpGivesTheLogisticOfEpsilon") {
  CHECK(MaxAucUnderDp(0, 0) == doctest::Approx(0.5));
  for (double eps : {0.1, 0.5, 1.0, 2.0, 4.0, 8.0}) {
    INFO("epsilon=" << eps);
    CHECK(MaxAucUnderDp(eps, 0) == doctest::Approx(std::exp(eps) / (1 + std::exp(eps))).epsilon(1e-12));
  }
  CHECK(MaxAucUnderDp(INFINITY, 0) == 1.0);
}

TEST_CASE("AucBounds.DeltaIsTheAreaUnderTheRegionsEdge") {
  for (double eps : {0.5, 1.0, 3.0}) {
    for (double delta : {1e-5, 1e-2, 0.2}) {
      INFO("epsilon=" << eps << " delta=" << delta);
      CHECK(MaxAucUnderDp(eps, delta) == doctest::Approx(IntegratedEdge(eps, delta)).epsilon(1e-6));
      CHECK(MaxAucUnderDp(eps, delta) > MaxAucUnderDp(eps, 0));
    }
  }
  CHECK(MaxAucUnderDp(1, 1) == 1.0);
}

TEST_CASE("AucBounds.GroupPrivacyScalesEpsilonAndDelta") {
  const DpGuarantee g = GroupPrivacy(1.0, 1e-5, 2);
  CHECK(g.epsilon == doctest::Approx(2.0));
  CHECK(g.delta == doctest::Approx(2 * std::exp(1.0) * 1e-5));
  CHECK(GroupPrivacy(0.5, 0, 1).epsilon == doctest::Approx(0.5));
}

TEST_CASE("AucBounds.TheIntervalHoldsTheAucAndShrinksWithMoreScores") {
  const AucInterval small = AucConfidenceInterval(0.7, 50, 50);
  const AucInterval large = AucConfidenceInterval(0.7, 5000, 5000);
  CHECK(small.low < 0.7);
  CHECK(small.high > 0.7);
  CHECK(large.high - large.low < (small.high - small.low) / 5);
  // Hanley and McNeil's standard error for A = 0.9 and 1000 + 1000 scores is
  // 0.0071; Clopper-Pearson's for 900 of 1000 about 0.0095, the wider.
  const AucInterval high = AucConfidenceInterval(0.9, 1000, 1000);
  CHECK((high.high - high.low) / (2 * 1.96) == doctest::Approx(0.0095).epsilon(0.05));
  CHECK((high.high - high.low) / (2 * 1.96) > 0.0072);
  // At an AUC of 1 Hanley and McNeil's interval has no width; the paired
  // test's lower end after 500 successes of 500 is 0.025^(1/500).
  const AucInterval perfect = AucConfidenceInterval(1.0, 500, 700);
  CHECK(perfect.low == doctest::Approx(std::pow(0.025, 1.0 / 500)).epsilon(1e-4));
  CHECK(perfect.high == 1.0);
  const AucInterval none = AucConfidenceInterval(0.9, 0, 10);
  CHECK(none.low == 0);
  CHECK(none.high == 1);
  CHECK(AucConfidenceInterval(1.0, 3, 3).high == 1.0);
}
