// Statistics for the statistical tier: goodness-of-fit p-values and
// one-sided confidence bounds on a probability.
#ifndef LDPGRAPH_TESTS_SUPPORT_STATS_H_
#define LDPGRAPH_TESTS_SUPPORT_STATS_H_

#include <cstdint>
#include <vector>

namespace ldpgraph {
namespace testing {

// Pr[chi^2_dof >= x]: the p-value of a chi-square statistic.
double ChiSquareSurvival(double x, double dof);

// Pearson's chi-square test of observed counts against expected
// probabilities. Cells with expected count below `min_expected` are pooled
// into one cell (the usual validity rule). Returns the p-value.
double ChiSquarePValue(const std::vector<std::uint64_t>& observed,
                       const std::vector<double>& probabilities, double min_expected = 5.0);

// Two-sided p-value of a standard normal z-score.
double NormalTwoSidedPValue(double z);

// Chernoff (KL) bounds: with probability >= 1 - delta over k ~ Bin(n, p),
// p <= UpperBound(k, n, delta) and p >= LowerBound(k, n, delta).
double ProbabilityUpperBound(std::uint64_t k, std::uint64_t n, double delta);
double ProbabilityLowerBound(std::uint64_t k, std::uint64_t n, double delta);

}  // namespace testing
}  // namespace ldpgraph

#endif  // LDPGRAPH_TESTS_SUPPORT_STATS_H_
