// The discrete Gaussian against its exact law, and its (epsilon, delta) as
// the RDP accountant states it put to an empirical test: on neighbouring
// inputs 0 and D, no threshold event may be more likely under one than
// e^epsilon times under the other plus delta (with Chernoff bounds on both
// frequencies); the same test refutes a sampler with a quarter of the noise.
// Fixed seeds; each check fails a correct sampler with probability < 1e-6.
#include "privacy/discrete_gaussian.h"

#include <doctest/doctest.h>

#include <cmath>
#include <map>

#include "privacy/rdp_accountant.h"
#include "support/stats.h"

using namespace ldpgraph;
using namespace ldpgraph::testing;

namespace {

// Whether some event {X >= c} refutes (epsilon, delta)-DP of x + noise on
// the inputs 0 and `shift`, from `runs` samples each.
bool ThresholdEventRefutes(const DiscreteGaussian& noise, std::int64_t shift, double epsilon, double delta,
                           std::uint64_t runs, std::uint64_t seed) {
  SeededRandomSource rng(seed);
  std::map<std::int64_t, std::uint64_t> at_zero, at_shift;  // value -> count
  for (std::uint64_t i = 0; i < runs; ++i) {
    ++at_zero[noise.Sample(rng)];
    ++at_shift[shift + noise.Sample(rng)];
  }
  // Counts of X >= c for every c seen, from the top down.
  std::map<std::int64_t, std::pair<std::uint64_t, std::uint64_t>> tails;
  for (const auto& [v, n] : at_zero) tails[v].first += n;
  for (const auto& [v, n] : at_shift) tails[v].second += n;
  std::uint64_t zero_tail = 0, shift_tail = 0;
  const double confidence = 1e-7 / static_cast<double>(tails.size());  // Bonferroni over the events
  for (auto it = tails.rbegin(); it != tails.rend(); ++it) {
    zero_tail += it->second.first;
    shift_tail += it->second.second;
    // Pr_shift[X >= c] <= e^eps Pr_0[X >= c] + delta must hold for every c.
    const double shift_low = ProbabilityLowerBound(shift_tail, runs, confidence);
    const double zero_high = ProbabilityUpperBound(zero_tail, runs, confidence);
    if (shift_low > std::exp(epsilon) * zero_high + delta) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("DiscreteGaussian.FitsItsPmf") {
  for (double sigma : {0.6, 3.0, 41.5}) {
    Result<DiscreteGaussian> g = DiscreteGaussian::Create(sigma);
    REQUIRE(g.ok());
    const auto reach = static_cast<std::int64_t>(std::ceil(12 * sigma + 5));
    std::vector<double> probs;
    double total = 0;
    for (std::int64_t x = -reach; x <= reach; ++x) {
      probs.push_back(std::exp(-static_cast<double>(x * x) / (2 * sigma * sigma)));
      total += probs.back();
    }
    for (double& p : probs) p /= total;
    probs.push_back(0);  // outside: never (mass below 1e-31)
    std::vector<std::uint64_t> counts(probs.size(), 0);
    SeededRandomSource rng(static_cast<std::uint64_t>(sigma * 10));
    for (int i = 0; i < 300000; ++i) {
      const std::int64_t x = g->Sample(rng);
      ++counts[x < -reach || x > reach ? probs.size() - 1 : static_cast<std::size_t>(x + reach)];
    }
    CHECK(counts.back() == 0u);
    const double pv = ChiSquarePValue(counts, probs);
    INFO("sigma " << sigma << ": chi-square p-value " << pv);
    CHECK(pv > 1e-6);
  }
}

TEST_CASE("DiscreteGaussian.NoThresholdEventRefutesTheAccountantsEpsilon") {
  // Noise multiplier 1 (sigma = sensitivity = 6), one release, delta 1e-3.
  const double sigma = 6, delta = 1e-3;
  RdpAccountant accountant;
  REQUIRE(accountant.Add({1.0, 1.0, 1}).ok());
  const double epsilon = *accountant.Epsilon(delta);
  Result<DiscreteGaussian> honest = DiscreteGaussian::Create(sigma);
  REQUIRE(honest.ok());
  CHECK_FALSE(ThresholdEventRefutes(*honest, 6, epsilon, delta, 2000000, 1));
  // A sampler with a quarter of the noise it claims is caught.
  Result<DiscreteGaussian> broken = DiscreteGaussian::Create(sigma / 4);
  REQUIRE(broken.ok());
  CHECK(ThresholdEventRefutes(*broken, 6, epsilon, delta, 2000000, 2));
}

TEST_CASE("DiscreteGaussian.NoiseOnAGridKeepsValuesOnIt") {
  Matrix x(200, 3);
  x.setConstant(0.3f);
  SeededRandomSource rng(5);
  REQUIRE(AddDiscreteGaussianNoise(&x, 0.5, rng).ok());
  double sum = 0, sum_sq = 0;
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    const double steps = x.data()[i] / kNoiseGranularity;
    CHECK(steps == std::nearbyint(steps));  // on the grid
    sum += x.data()[i];
    sum_sq += (x.data()[i] - 0.3) * (x.data()[i] - 0.3);
  }
  CHECK(std::fabs(sum / 600 - 0.3) < 5 * 0.5 / std::sqrt(600.0));
  CHECK(std::sqrt(sum_sq / 600) == doctest::Approx(0.5).epsilon(0.15));
  for (double bad : {0.0, -1.0, std::nan("")}) CHECK_FALSE(AddDiscreteGaussianNoise(&x, bad, rng).ok());
  CHECK(RoundedSensitivity(1.0, 16) == doctest::Approx(1.0 + 4 * kNoiseGranularity));
}
