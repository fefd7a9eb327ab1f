// Each sampler against its exact distribution. Fixed seeds make every run
// identical; each check rejects at p < 1e-6, so a fresh seed would fail a
// correct sampler with probability about 1e-6 per check (~2e-5 for the file).
#include "ldpgraph/samplers.h"

#include <doctest/doctest.h>

#include <cmath>

#include "support/stats.h"

using namespace ldpgraph;
using namespace ldpgraph::testing;

namespace {
constexpr double kAlpha = 1e-6;

double LogBinomialPmf(std::uint64_t n, std::uint64_t k, double p) {
  const double nn = static_cast<double>(n), kk = static_cast<double>(k);
  return std::lgamma(nn + 1) - std::lgamma(kk + 1) - std::lgamma(nn - kk + 1) + kk * std::log(p) +
         (nn - kk) * std::log1p(-p);
}

void CheckBinomialFits(std::uint64_t n, double p, std::uint64_t seed) {
  SeededRandomSource rng(seed);
  const double mean = static_cast<double>(n) * p, sd = std::sqrt(mean * (1 - p));
  const auto lo = static_cast<std::uint64_t>(std::fmax(0.0, std::floor(mean - 12 * sd - 5)));
  const auto hi = static_cast<std::uint64_t>(std::fmin(static_cast<double>(n), std::ceil(mean + 12 * sd + 5)));
  std::vector<double> probs;
  double covered = 0;
  for (std::uint64_t k = lo; k <= hi; ++k) {
    probs.push_back(std::exp(LogBinomialPmf(n, k, p)));
    covered += probs.back();
  }
  probs.push_back(std::fmax(0.0, 1.0 - covered));  // outside [lo, hi]
  std::vector<std::uint64_t> counts(probs.size(), 0);
  const int draws = 200000;
  for (int i = 0; i < draws; ++i) {
    const std::uint64_t k = Binomial(rng, n, p);
    ++counts[(k < lo || k > hi) ? probs.size() - 1 : k - lo];
  }
  const double pv = ChiSquarePValue(counts, probs);
  INFO("Binomial(" << n << ", " << p << ") chi-square p-value " << pv);
  CHECK(pv > kAlpha);
}
}  // namespace

TEST_CASE("Bernoulli.FrequencyMatchesP") {
  SeededRandomSource rng(100);
  for (double p : {0.5, 0.3, 1e-3, 1e-4 /* two-chunk comparison */, 0.999, 0.1 + 1e-17}) {
    const int draws = p < 1e-3 ? 20000000 : 1000000;
    std::uint64_t hits = 0;
    for (int i = 0; i < draws; ++i) hits += Bernoulli(rng, p);
    const double z = (hits - draws * p) / std::sqrt(draws * p * (1 - p));
    INFO("p = " << p << ", hits = " << hits << ", z = " << z);
    CHECK(NormalTwoSidedPValue(z) > kAlpha);
  }
}

TEST_CASE("Binomial.InversionRegimeFitsPmf") {
  CheckBinomialFits(10, 0.3, 1);
  CheckBinomialFits(50, 0.1, 2);
  CheckBinomialFits(1000000000ull, 2e-9, 3);  // mean 2 over a billion trials
}

TEST_CASE("Binomial.RejectionRegimeFitsPmf") {
  CheckBinomialFits(100, 0.5, 4);
  CheckBinomialFits(1000, 0.02, 5);
  CheckBinomialFits(1000000000ull, 1e-8, 6);  // mean 10: BTRD's smallest case
  CheckBinomialFits(3000, 0.27, 7);
  CheckBinomialFits(40, 0.8, 8);  // p > 1/2 through the symmetry
}

TEST_CASE("Binomial.HugeNMeanAndVariance") {
  SeededRandomSource rng(9);
  const std::uint64_t n = 1000000000ull;
  const double p = 0.3;
  const int draws = 20000;
  double sum = 0, sumsq = 0;
  for (int i = 0; i < draws; ++i) {
    const double k = static_cast<double>(Binomial(rng, n, p));
    sum += k;
    sumsq += k * k;
  }
  const double mean = sum / draws, var = sumsq / draws - mean * mean;
  const double true_var = n * p * (1 - p);
  const double z = (mean - n * p) / std::sqrt(true_var / draws);
  CHECK(NormalTwoSidedPValue(z) > kAlpha);
  // Sample variance of a near-normal: relative standard error sqrt(2 / draws) = 1%.
  CHECK(std::fabs(var / true_var - 1.0) < 0.06);
}

TEST_CASE("SampleSubsetAvoiding.EverySubsetEquallyLikely") {
  // n = 10 minus {2, 5}: 8 values. Sparse case k = 3 (56 subsets) and dense
  // case k = 6 (28 subsets) go through different code paths.
  for (std::uint64_t k : {3u, 6u}) {
    SeededRandomSource rng(10 + k);
    std::vector<std::uint64_t> counts(1u << 10, 0);
    const int draws = 300000;
    for (int i = 0; i < draws; ++i) {
      std::vector<std::uint32_t> out;
      REQUIRE(SampleSubsetAvoiding(rng, 10, std::vector<std::uint32_t>{2, 5}, k, &out).ok());
      unsigned mask = 0;
      for (auto v : out) mask |= 1u << v;
      ++counts[mask];
    }
    std::vector<std::uint64_t> observed;
    std::vector<double> probs;
    int subsets = 0;
    for (unsigned mask = 0; mask < counts.size(); ++mask) {
      if ((mask & ((1u << 2) | (1u << 5))) == 0 && static_cast<unsigned>(__builtin_popcount(mask)) == k) ++subsets;
    }
    for (unsigned mask = 0; mask < counts.size(); ++mask) {
      const bool valid = (mask & ((1u << 2) | (1u << 5))) == 0 && static_cast<unsigned>(__builtin_popcount(mask)) == k;
      if (!valid) {
        CHECK(counts[mask] == 0u);
        continue;
      }
      observed.push_back(counts[mask]);
      probs.push_back(1.0 / subsets);
    }
    const double pv = ChiSquarePValue(observed, probs);
    INFO("k = " << k << ", subsets = " << subsets << ", p-value " << pv);
    CHECK(pv > kAlpha);
  }
}

TEST_CASE("DiscreteLaplace.FitsPmf") {
  for (double eps : {0.1, 1.0, 3.0}) {
    SeededRandomSource rng(static_cast<std::uint64_t>(eps * 1000));
    auto lap = DiscreteLaplace::Create(eps);
    REQUIRE(lap.ok());
    const double e = lap->effective_epsilon();
    const int range = static_cast<int>(std::ceil(25.0 / e));
    std::vector<double> probs;
    double covered = 0;
    const double norm = (1 - std::exp(-e)) / (1 + std::exp(-e));
    for (int x = -range; x <= range; ++x) {
      probs.push_back(norm * std::exp(-e * std::abs(x)));
      covered += probs.back();
    }
    probs.push_back(std::fmax(0.0, 1.0 - covered));
    std::vector<std::uint64_t> counts(probs.size(), 0);
    const int draws = 300000;
    for (int i = 0; i < draws; ++i) {
      const std::int64_t x = lap->Sample(rng);
      ++counts[std::llabs(x) > range ? probs.size() - 1 : static_cast<std::size_t>(x + range)];
    }
    const double pv = ChiSquarePValue(counts, probs);
    INFO("epsilon " << eps << " p-value " << pv);
    CHECK(pv > kAlpha);
  }
}
