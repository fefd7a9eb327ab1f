// RR with degree (Blink's report) against its definition: every bit kept
// with p = e^eps2 / (e^eps2 + 1), the degree plus discrete Laplace noise of
// scale 1/eps1. Fixed seeds; each check rejects at p < 1e-6.
#include "ldpgraph/rr_with_degree.h"

#include <doctest/doctest.h>

#include <cmath>
#include <map>

#include "support/noise_kind.h"
#include "support/stats.h"

using namespace ldpgraph;
using namespace ldpgraph::testing;

namespace {
constexpr double kAlpha = 1e-6;
}

TEST_CASE("RrWithDegree.EachBitIsWarnersRandomizedResponse") {
  const std::uint32_t n = 20;
  auto mech = RrWithDegree::Create(n, 3.0, BudgetAllocation::kFixed);
  REQUIRE(mech.ok());
  CHECK(mech->eps1() == doctest::Approx(0.3));
  CHECK(mech->p() == doctest::Approx(1 / (1 + std::exp(-2.7))));
  for (NoiseKind kind : kBothNoiseKinds) {
  CAPTURE(NoiseKindName(kind));
  SeededRandomSource rng(81);
  const std::vector<std::uint32_t> neighbours = {1, 2, 3, 4, 5};
  std::vector<double> ones(n, 0);
  NoisyEdges out;
  const int runs = 200000;
  for (int r = 0; r < runs; ++r) {
    REQUIRE(PerturbAs(kind, *mech, 0, neighbours, rng, &out).ok());
    CHECK(out.mechanism == EdgeMechanism::kRrDegree);
    for (auto v : out.neighbours) ones[v] += 1;
  }
  double chi2 = 0;
  for (std::uint32_t j = 1; j < n; ++j) {
    const double pi = j <= 5 ? mech->p() : 1 - mech->p();
    const double z = (ones[j] - runs * pi) / std::sqrt(runs * pi * (1 - pi));
    chi2 += z * z;
  }
  const double pv = ChiSquareSurvival(chi2, n - 1);
  INFO("chi2 = " << chi2 << ", p = " << pv);
  CHECK(pv > kAlpha);
  }
}

TEST_CASE("RrWithDegree.DegreeNoiseIsDiscreteLaplace") {
  // Pr[d* - d = z] = (1 - a) / (1 + a) a^|z|, a = e^-eps1; |z| > 12 pooled.
  auto mech = RrWithDegree::Create(50, 5.0, BudgetAllocation::kFixed);
  REQUIRE(mech.ok());
  auto noise = DiscreteLaplace::Create(mech->eps1());
  REQUIRE(noise.ok());
  const double a = std::exp(-noise->effective_epsilon());
  for (NoiseKind kind : kBothNoiseKinds) {
  CAPTURE(NoiseKindName(kind));
  SeededRandomSource rng(82);
  const std::vector<std::uint32_t> neighbours = {3, 9, 27};
  const int runs = 200000, span = 12;
  std::vector<std::uint64_t> observed(2 * span + 2, 0);
  NoisyEdges out;
  for (int r = 0; r < runs; ++r) {
    REQUIRE(PerturbAs(kind, *mech, 7, neighbours, rng, &out).ok());
    const std::int64_t z = out.noisy_degree - 3;
    observed[std::abs(z) > span ? 2 * span + 1 : static_cast<std::size_t>(z + span)] += 1;
  }
  std::vector<double> expected(observed.size(), 0);
  double inside = 0;
  for (int z = -span; z <= span; ++z) {
    expected[z + span] = (1 - a) / (1 + a) * std::pow(a, std::abs(z));
    inside += expected[z + span];
  }
  expected.back() = 1 - inside;
  const double pv = ChiSquarePValue(observed, expected);
  INFO("p = " << pv);
  CHECK(pv > kAlpha);
  }
}
