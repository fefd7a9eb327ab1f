// The memoised forms' promises that hold for every key: the same input
// gives the same output, a change moves only what it touches, and DPRR's
// ones only grow with q.
#include <doctest/doctest.h>

#include <algorithm>
#include <iterator>

#include "internal/dprr_rates.h"
#include "ldpgraph/dprr.h"
#include "ldpgraph/edge_randomizers.h"
#include "ldpgraph/label_rr.h"
#include "ldpgraph/local_lap.h"
#include "ldpgraph/multibit.h"
#include "ldpgraph/randomized_response.h"
#include "ldpgraph/rr_with_degree.h"

using namespace ldpgraph;

namespace {

PermanentCoins Coins(std::uint64_t seed) {
  SeededRandomSource rng(seed);
  CoinKey key;
  rng.FillBytes(key.data(), key.size());
  return PermanentCoins(key);
}

std::vector<std::uint32_t> Without(const std::vector<std::uint32_t>& ids, const std::vector<std::uint32_t>& drop) {
  std::vector<std::uint32_t> out;
  std::set_difference(ids.begin(), ids.end(), drop.begin(), drop.end(), std::back_inserter(out));
  return out;
}

bool IsSubset(const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b) {
  return std::includes(b.begin(), b.end(), a.begin(), a.end());
}

}  // namespace

TEST_CASE("PermanentCoins.ACoinIsItsNameAndTheKey") {
  const PermanentCoins a = Coins(1), b = Coins(2);
  CoinStream x = a.Coin(CoinPurpose::kFriendBit, 0, 5);
  CoinStream y = a.Coin(CoinPurpose::kFriendBit, 0, 5);
  std::uint64_t first = x.NextU64();
  CHECK(first == y.NextU64());
  for (int i = 0; i < 20; ++i) CHECK(x.NextU64() == y.NextU64());  // across blocks too
  CHECK(a.Coin(CoinPurpose::kFriendBit, 0, 6).NextU64() != first);
  CHECK(a.Coin(CoinPurpose::kDegree, 0, 5).NextU64() != first);
  CHECK(a.Coin(CoinPurpose::kFriendBit, 1, 5).NextU64() != first);
  CHECK(b.Coin(CoinPurpose::kFriendBit, 0, 5).NextU64() != first);
}

TEST_CASE("MemoisedEdges.SameListSameOutputForEveryMechanism") {
  const std::uint32_t n = 300;
  std::vector<std::unique_ptr<EdgeRandomizer>> mechanisms;
  mechanisms.push_back(std::make_unique<Dprr>(*Dprr::Create(n, 1.0)));
  mechanisms.push_back(std::make_unique<RandomizedResponse>(*RandomizedResponse::Create(n, 2.0)));
  mechanisms.push_back(std::make_unique<RrWithDegree>(*RrWithDegree::Create(n, 2.0)));
  mechanisms.push_back(std::make_unique<LocalLapClient>(*LocalLapClient::Create(n, 2.0, BudgetAllocation::kFixed, 0, 4)));
  const std::vector<std::uint32_t> friends = {9, 4, 250, 17};  // any order
  const std::vector<std::uint32_t> reordered = {250, 17, 9, 4};
  for (const auto& m : mechanisms) {
    CAPTURE(EdgeMechanismName(m->mechanism()));
    const PermanentCoins coins = Coins(3), other = Coins(4);
    NoisyEdges a, b, c;
    REQUIRE(PerturbMemoised(*m, 0, friends, coins, &a).ok());
    REQUIRE(PerturbMemoised(*m, 0, reordered, coins, &b).ok());
    REQUIRE(PerturbMemoised(*m, 0, friends, other, &c).ok());
    CHECK(a.neighbours == b.neighbours);
    CHECK(a.noisy_degree == b.noisy_degree);
    CHECK(a.values == b.values);
    CHECK(a.q == b.q);
    CHECK((a.neighbours != c.neighbours || a.values != c.values || a.noisy_degree != c.noisy_degree));
    // The input checks of Perturb().
    const std::vector<std::uint32_t> self = {0};
    const std::vector<std::uint32_t> beyond = {n};
    CHECK(PerturbMemoised(*m, 0, self, coins, &a).code() == StatusCode::kInvalidArgument);
    CHECK(PerturbMemoised(*m, 0, beyond, coins, &a).code() == StatusCode::kOutOfRange);
  }
}

TEST_CASE("MemoisedRr.AddingAFriendMovesOnlyHerBit") {
  auto rr = RandomizedResponse::Create(1000, 1.0);
  const PermanentCoins coins = Coins(5);
  for (std::uint32_t added = 1; added < 200; added += 7) {
    NoisyEdges before, after;
    const std::vector<std::uint32_t> friends = {500, 600};
    std::vector<std::uint32_t> more = friends;
    if (added == 500) continue;
    more.push_back(added);
    REQUIRE(PerturbMemoised(*rr, 0, friends, coins, &before).ok());
    REQUIRE(PerturbMemoised(*rr, 0, more, coins, &after).ok());
    CHECK(Without(before.neighbours, {added}) == Without(after.neighbours, {added}));
  }
}

TEST_CASE("MemoisedDprr.OnesOnlyGrowWithTheNoisyDegree") {
  // Nested outputs: a larger degree (so a larger q) keeps every non-friend
  // one of a smaller degree, and every kept friend.
  const std::uint32_t n = 2000;
  auto dprr = Dprr::Create(n, 1.0);
  REQUIRE(dprr.ok());
  for (std::uint64_t seed = 10; seed < 30; ++seed) {
    const PermanentCoins coins = Coins(seed);
    std::vector<std::uint32_t> friends;
    NoisyEdges previous;
    double previous_q = -1;
    for (std::uint32_t d = 0; d < 400; d += 20) {
      while (friends.size() < d) friends.push_back(static_cast<std::uint32_t>(1 + friends.size() * 3));
      NoisyEdges out;
      REQUIRE(PerturbMemoised(*dprr, 0, friends, coins, &out).ok());
      if (out.q >= previous_q && previous_q >= 0) {
        // The non-friend ones at the smaller q (minus the friends added since) stay.
        CHECK(IsSubset(Without(previous.neighbours, friends), out.neighbours));
      }
      previous = out;
      previous_q = out.q;
    }
  }
}

TEST_CASE("MemoisedOnesCount.GrowsAlongTheGridAndStaysInRange") {
  auto dprr = Dprr::Create(5000, 2.0);
  REQUIRE(dprr.ok());
  const internal::DprrRates rates(dprr->num_users(), dprr->p());
  for (std::uint64_t seed = 60; seed < 70; ++seed) {
    const PermanentCoins coins = Coins(seed);
    std::uint64_t previous = 0;
    for (std::uint64_t t = 0; t < 5000; t += 37) {
      const std::uint64_t k = internal::MemoisedOnesCount(coins, 4999, rates, t);
      CHECK(k >= previous);
      CHECK(k <= 4999u);
      previous = k;
    }
    CHECK(internal::MemoisedOnesCount(coins, 4999, rates, 0) == 0u);  // q = 0 at degree 0
  }
}

TEST_CASE("MemoisedFeaturesAndLabel.SameValueSameAnswer") {
  MultiBitParams p;
  p.dims = 50;
  p.epsilon = 9.0;  // 4 sampled dimensions
  auto enc = MultiBitEncoder::Create(p);
  REQUIRE(enc.ok());
  const PermanentCoins coins = Coins(50);
  std::vector<double> x(50, 0.5);
  std::vector<EncodedFeature> a, b;
  REQUIRE(enc->EncodeMemoised(x, coins, &a).ok());
  REQUIRE(enc->EncodeMemoised(x, coins, &b).ok());
  CHECK(a == b);
  REQUIRE(a.size() == 4u);
  CHECK(enc->MemoisedDims(coins).size() == 4u);
  // Changing an unsampled dimension changes nothing; -0 is +0.
  std::vector<std::uint32_t> dims = enc->MemoisedDims(coins);
  std::uint32_t unsampled = 0;
  while (std::find(dims.begin(), dims.end(), unsampled) != dims.end()) ++unsampled;
  x[unsampled] = 0.9;
  REQUIRE(enc->EncodeMemoised(x, coins, &b).ok());
  CHECK(a == b);
  CHECK(MultiBitEncoder::ValueBits(-0.0) == MultiBitEncoder::ValueBits(0.0));
  x[0] = 2.0;  // out of range: refused as by Encode
  CHECK(enc->EncodeMemoised(x, coins, &b).code() == StatusCode::kOutOfRange);

  auto label = LabelRandomizer::Create(6, 0.5);
  REQUIRE(label.ok());
  for (std::uint32_t y = 0; y < 6; ++y) CHECK(*label->PerturbMemoised(y, coins) == *label->PerturbMemoised(y, coins));
  CHECK(label->PerturbMemoised(6, coins).status().code() == StatusCode::kOutOfRange);
}
