// Clopper-Pearson bounds against values computed independently (R's
// binom.test and qbeta), and the incomplete beta against a binomial sum.
#include "audit/binomial_bounds.h"

#include <doctest/doctest.h>

#include <cmath>

using namespace ldpgraph;

TEST_CASE("BinomialBounds.TheIncompleteBetaIsABinomialTail") {
  // I_p(k, n - k + 1) = Pr[Binomial(n, p) >= k]: I_0.4(2, 3) = 1 - 0.6^4 - 4 (0.4)(0.6^3).
  CHECK(RegularizedIncompleteBeta(2, 3, 0.4) == doctest::Approx(1 - std::pow(0.6, 4) - 4 * 0.4 * std::pow(0.6, 3)));
  CHECK(RegularizedIncompleteBeta(1, 1, 0.3) == doctest::Approx(0.3));  // the uniform distribution
  CHECK(RegularizedIncompleteBeta(5, 5, 0.5) == doctest::Approx(0.5));  // symmetric
  // In a tail, with large parameters (as 10^6 trials make them): Beta(500000, 500001) has mean 1/2 and
  // standard deviation sqrt(0.25 / 10^6) = 0.0005, so 0.499 lies 2 below: 1 - Phi(2) = 0.02275.
  CHECK(RegularizedIncompleteBeta(500000, 500001, 0.499) == doctest::Approx(0.02275).epsilon(0.02));
}

TEST_CASE("BinomialBounds.MatchTheExactIntervals") {
  // binom.test(5, 10)$conf.int: [0.1870860, 0.8129140] (two-sided 95%: 0.025 in each tail).
  CHECK(BinomialLowerBound(5, 10, 0.025) == doctest::Approx(0.1870860).epsilon(1e-6));
  CHECK(BinomialUpperBound(5, 10, 0.025) == doctest::Approx(0.8129140).epsilon(1e-6));
  // No success: the upper bound solves (1 - p)^n = alpha.
  CHECK(BinomialLowerBound(0, 10, 0.05) == 0.0);
  CHECK(BinomialUpperBound(0, 10, 0.05) == doctest::Approx(1 - std::pow(0.05, 0.1)).epsilon(1e-9));
  CHECK(BinomialUpperBound(10, 10, 0.05) == 1.0);
  CHECK(BinomialLowerBound(10, 10, 0.05) == doctest::Approx(std::pow(0.05, 0.1)).epsilon(1e-9));
  // 10^6 trials: within a few standard errors of the rate, on the right side.
  const double low = BinomialLowerBound(731059, 1000000, 0.0125);
  const double high = BinomialUpperBound(731059, 1000000, 0.0125);
  CHECK(low < 0.731059);
  CHECK(high > 0.731059);
  CHECK(high - low == doctest::Approx(2 * 2.2414 * std::sqrt(0.731059 * 0.268941 / 1e6)).epsilon(0.01));
}
