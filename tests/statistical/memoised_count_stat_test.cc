// The count behind memoised DPRR (sdk/src/internal/memoised_rr.h): over
// keys, K(t) is Binomial(N, rate(t)) at every grid point, and the ones added
// between two points are Binomial(N, rate(t2) - rate(t1)), as if every
// candidate had its own uniform coin. Fixed seeds; each check rejects at p < 1e-6.
#include <doctest/doctest.h>

#include <cmath>

#include "internal/dprr_rates.h"
#include "ldpgraph/dprr.h"
#include "support/noise_kind.h"
#include "support/stats.h"

using namespace ldpgraph;
using namespace ldpgraph::testing;

namespace {
constexpr double kAlpha = 1e-6;

std::vector<double> BinomialPmf(std::uint64_t n, double p) {
  std::vector<double> pmf(n + 1);
  for (std::uint64_t k = 0; k <= n; ++k) {
    pmf[k] = std::exp(std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0) + k * std::log(p) +
                      (n - k) * std::log1p(-p));
  }
  return pmf;
}
}  // namespace

TEST_CASE("MemoisedOnesCount.IsBinomialAtEachPointAndBetweenPoints") {
  const std::uint32_t n = 61;
  auto dprr = Dprr::Create(n, 1.0);
  REQUIRE(dprr.ok());
  const internal::DprrRates rates(dprr->num_users(), dprr->p());
  const std::uint64_t candidates = n - 1;
  const int runs = 100000;
  for (const auto& grid_points : {std::pair<std::uint64_t, std::uint64_t>{3, 17}, {10, 11}, {29, 60}}) {
    // Named copies: clang's doctest CAPTURE cannot take a structured binding.
    const std::uint64_t t1 = grid_points.first, t2 = grid_points.second;
    CAPTURE(t1);
    CAPTURE(t2);
    SeededRandomSource rng(100 + t1);
    std::vector<std::uint64_t> at1(candidates + 1, 0), at2(candidates + 1, 0), between(candidates + 1, 0);
    for (int r = 0; r < runs; ++r) {
      const PermanentCoins coins = FreshCoins(rng);
      const std::uint64_t k1 = internal::MemoisedOnesCount(coins, candidates, rates, t1);
      const std::uint64_t k2 = internal::MemoisedOnesCount(coins, candidates, rates, t2);
      REQUIRE(k2 >= k1);
      ++at1[k1];
      ++at2[k2];
      ++between[k2 - k1];
    }
    const double r1 = rates.Rate(t1), r2 = rates.Rate(t2);
    const double p1 = ChiSquarePValue(at1, BinomialPmf(candidates, r1));
    const double p2 = ChiSquarePValue(at2, BinomialPmf(candidates, r2));
    const double p12 = ChiSquarePValue(between, BinomialPmf(candidates, r2 - r1));
    INFO("rates " << r1 << ", " << r2 << ": p-values " << p1 << ", " << p2 << ", " << p12);
    CHECK(p1 > kAlpha);
    CHECK(p2 > kAlpha);
    CHECK(p12 > kAlpha);
  }
}
