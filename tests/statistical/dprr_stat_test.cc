// DPRR against the paper's formulas. Fixed seeds; each check rejects at
// p < 1e-6 (false-failure rate ~1e-6 per check under a fresh seed).
#include "ldpgraph/dprr.h"

#include <doctest/doctest.h>

#include <cmath>

#include "support/noise_kind.h"
#include "support/stats.h"

using namespace ldpgraph;
using namespace ldpgraph::testing;

namespace {
constexpr double kAlpha = 1e-6;

// Pr[d* = d + z] under the discrete Laplace noise of `dprr`.
double NoisePmf(double eps1, int z) {
  return (1 - std::exp(-eps1)) / (1 + std::exp(-eps1)) * std::exp(-eps1 * std::abs(z));
}

struct Moments {
  double mean = 0, var = 0;
};

// Exact mean and variance of the noisy degree: condition on d*, then
// d~ | d* = Bin(d, p q) + Bin(n - 1 - d, (1 - p) q).
Moments ExactNoisyDegree(const Dprr& dprr, std::uint32_t n, int d, double eps1) {
  const double p = dprr.p();
  double m1 = 0, m2 = 0;
  const int span = static_cast<int>(std::ceil(60.0 / eps1));
  for (int z = -span; z <= span; ++z) {
    const double w = NoisePmf(eps1, z);
    const double q = dprr.SamplingProbability(d + z);
    const double a = p * q, b = (1 - p) * q;
    const double mean = d * a + (n - 1.0 - d) * b;
    const double var = d * a * (1 - a) + (n - 1.0 - d) * b * (1 - b);
    m1 += w * mean;
    m2 += w * (var + mean * mean);
  }
  return {m1, m2 - m1 * m1};
}
// Sample mean and variance of the noisy degree over `runs` reports of user 0.
Moments SampledNoisyDegree(const Dprr& dprr, const std::vector<std::uint32_t>& neighbours, std::uint64_t seed,
                           int runs, NoiseKind kind = NoiseKind::kFresh) {
  SeededRandomSource rng(seed);
  NoisyEdges out;
  double sum = 0, sumsq = 0;
  for (int r = 0; r < runs; ++r) {
    REQUIRE(PerturbAs(kind, dprr, 0, neighbours, rng, &out).ok());
    const double k = static_cast<double>(out.neighbours.size());
    sum += k;
    sumsq += k * k;
  }
  const double mean = sum / runs;
  return {mean, sumsq / runs - mean * mean};
}
}  // namespace

TEST_CASE("Dprr.EachBitFollowsEq7") {
  // Pr[bit j = 1 | q] = p q for a true neighbour, (1 - p) q otherwise. Each
  // run's q is known (it is in the report), so the count of ones at bit j is
  // a sum of independent Bernoulli(pi_rj); sum of squared z-scores over the
  // n - 1 bits is chi-square with n - 1 degrees of freedom.
  const std::uint32_t n = 20;
  for (NoiseKind kind : kBothNoiseKinds)
  for (auto allocation : {BudgetAllocation::kFixed, BudgetAllocation::kPaper}) {
    CAPTURE(NoiseKindName(kind));
    auto dprr = Dprr::Create(n, 4.0, allocation, 40);
    REQUIRE(dprr.ok());
    SeededRandomSource rng(allocation == BudgetAllocation::kFixed ? 21 : 22);
    const std::vector<std::uint32_t> neighbours = {1, 2, 3, 4, 5};
    std::vector<double> ones(n, 0), expected(n, 0), variance(n, 0);
    NoisyEdges out;
    const int runs = 200000;
    for (int r = 0; r < runs; ++r) {
      REQUIRE(PerturbAs(kind, *dprr, 0, neighbours, rng, &out).ok());
      for (auto v : out.neighbours) ones[v] += 1;
      for (std::uint32_t j = 1; j < n; ++j) {
        const bool edge = j <= 5;
        const double pi = (edge ? out.p : 1 - out.p) * out.q;
        expected[j] += pi;
        variance[j] += pi * (1 - pi);
      }
    }
    double chi2 = 0;
    for (std::uint32_t j = 1; j < n; ++j) {
      const double z = (ones[j] - expected[j]) / std::sqrt(variance[j]);
      chi2 += z * z;
    }
    const double pv = ChiSquareSurvival(chi2, n - 1);
    INFO("allocation " << BudgetAllocationName(allocation) << ": chi2 = " << chi2 << ", p = " << pv);
    CHECK(pv > kAlpha);
  }
}

TEST_CASE("Dprr.NoisyDegreeKeepsTheTrueDegreeOnAverage") {
  const std::uint32_t n = 10000;
  const int d = 50;
  auto dprr = Dprr::Create(n, 1.0, BudgetAllocation::kPaper, n);
  REQUIRE(dprr.ok());
  std::vector<std::uint32_t> neighbours;
  for (int i = 1; i <= d; ++i) neighbours.push_back(static_cast<std::uint32_t>(i * 37));
  const int runs = 20000;
  for (NoiseKind kind : kBothNoiseKinds) {
  CAPTURE(NoiseKindName(kind));
  const Moments sampled = SampledNoisyDegree(*dprr, neighbours, 31, runs, kind);
  const double mean = sampled.mean, var = sampled.var;
  const auto noise = DiscreteLaplace::Create(dprr->eps1());
  const Moments exact = ExactNoisyDegree(*dprr, n, d, noise->effective_epsilon());
  MESSAGE("d = " << d << ": E[noisy degree] exact " << exact.mean << ", sampled " << mean
                 << "; variance exact " << exact.var << ", sampled " << var << ", bound (15) "
                 << (n - 1) / 4.0 + 2 / (dprr->eps1() * dprr->eps1()));
  // The sampler matches the exact moments...
  CHECK(NormalTwoSidedPValue((mean - exact.mean) / std::sqrt(exact.var / runs)) > kAlpha);
  CHECK(std::fabs(var / exact.var - 1.0) < 0.1);
  // ...and those are what the paper promises: E[d~] ~= d for d << n,
  CHECK(std::fabs(exact.mean - d) < 0.05 * d);
  // with the variance under eq. 15's bound (n_max - 1)/4 + 2/eps1^2.
  CHECK(var <= (n - 1) / 4.0 + 2 / (dprr->eps1() * dprr->eps1()));
  }
}

TEST_CASE("Dprr.VarianceUnderEq15AcrossDegrees") {
  const std::uint32_t n = 2000;
  auto dprr = Dprr::Create(n, 0.5, BudgetAllocation::kPaper, n);
  REQUIRE(dprr.ok());
  const double bound = (n - 1) / 4.0 + 2 / (dprr->eps1() * dprr->eps1());
  for (int d : {0, 5, 100, 1000, 1999}) {
    std::vector<std::uint32_t> neighbours;
    for (int i = 1; i <= d; ++i) neighbours.push_back(static_cast<std::uint32_t>(i));
    const Moments sampled = SampledNoisyDegree(*dprr, neighbours, 40 + d, 5000);
    const double mean = sampled.mean, var = sampled.var;
    INFO("d = " << d << ": mean " << mean << ", variance " << var << ", bound " << bound);
    CHECK(var <= bound * 1.1);  // 10% above for sampling error in the variance
  }
}
