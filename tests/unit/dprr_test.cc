#include "ldpgraph/dprr.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace ldpgraph;

namespace {
StatusCode CreateCode(std::uint32_t n, double eps, BudgetAllocation a = BudgetAllocation::kPaper,
                      std::uint32_t n_max = 0) {
  return Dprr::Create(n, eps, a, n_max).status().code();
}
StatusCode PerturbCode(std::uint32_t user, std::vector<std::uint32_t> neighbours) {
  auto dprr = Dprr::Create(100, 1.0, BudgetAllocation::kPaper, 1000);
  REQUIRE(dprr.ok());
  SeededRandomSource rng(1);
  NoisyEdges out;
  return dprr->Perturb(user, neighbours, rng, &out).code();
}
}  // namespace

TEST_CASE("Dprr.FailsEpsilonNan") { CHECK(CreateCode(100, std::nan("")) == StatusCode::kInvalidArgument); }
TEST_CASE("Dprr.FailsEpsilonInfinite") {
  CHECK(CreateCode(100, std::numeric_limits<double>::infinity()) == StatusCode::kInvalidArgument);
}
TEST_CASE("Dprr.FailsEpsilonZero") { CHECK(CreateCode(100, 0.0) == StatusCode::kInvalidArgument); }
TEST_CASE("Dprr.FailsEpsilonNegative") { CHECK(CreateCode(100, -1.0) == StatusCode::kInvalidArgument); }
TEST_CASE("Dprr.FailsNBelowTwo") {
  CHECK(CreateCode(1, 1.0) == StatusCode::kInvalidArgument);
  CHECK(CreateCode(0, 1.0) == StatusCode::kInvalidArgument);
}
TEST_CASE("Dprr.FailsNmaxBelowN") {
  CHECK(CreateCode(100, 1.0, BudgetAllocation::kPaper, 50) == StatusCode::kInvalidArgument);
}
TEST_CASE("Dprr.FailsWhenEq8LeavesNoEps2") {
  // n_max = 9: eps1 >= sqrt(8/8) = 1, so epsilon = 1 leaves eps2 = 0.
  auto r = Dprr::Create(9, 1.0, BudgetAllocation::kPaper, 9);
  CHECK(r.status().code() == StatusCode::kInvalidArgument);
  CHECK(r.status().message().find("eps2") != std::string::npos);
}
TEST_CASE("Dprr.FailsUnknownAllocation") {
  CHECK(CreateCode(100, 1.0, static_cast<BudgetAllocation>(7)) == StatusCode::kInvalidArgument);
}
TEST_CASE("Dprr.FailsUserOutOfRange") { CHECK(PerturbCode(100, {1, 2}) == StatusCode::kOutOfRange); }
TEST_CASE("Dprr.FailsNeighbourOutOfRange") { CHECK(PerturbCode(0, {1, 100}) == StatusCode::kOutOfRange); }
TEST_CASE("Dprr.FailsNeighbourDuplicated") { CHECK(PerturbCode(0, {5, 1, 5}) == StatusCode::kInvalidArgument); }
TEST_CASE("Dprr.FailsNeighbourEqualsUser") { CHECK(PerturbCode(3, {1, 3}) == StatusCode::kInvalidArgument); }

TEST_CASE("Dprr.PaperAllocationFollowsEq8") {
  auto small = AllocateBudget(0.2, BudgetAllocation::kPaper, 3783);
  REQUIRE(small.ok());
  CHECK(small->eps1 == doctest::Approx(std::sqrt(8.0 / 3782.0)));  // the sqrt term dominates
  auto reddit = AllocateBudget(1.0, BudgetAllocation::kPaper, 3783);
  REQUIRE(reddit.ok());
  CHECK(reddit->eps1 == doctest::Approx(0.1));  // (1 - 0.9) * 1 > sqrt(8 / 3782)
  auto large = AllocateBudget(10.0, BudgetAllocation::kPaper, 3783);
  REQUIRE(large.ok());
  CHECK(large->eps1 == doctest::Approx(1.0));  // (1 - 0.9) * 10
  CHECK(large->eps1 + large->eps2 == doctest::Approx(10.0));
}

TEST_CASE("Dprr.FixedAllocationIsOneToNine") {
  auto s = AllocateBudget(2.0, BudgetAllocation::kFixed, 0);
  REQUIRE(s.ok());
  CHECK(s->eps1 == doctest::Approx(0.2));
  CHECK(s->eps2 == doctest::Approx(1.8));
}

TEST_CASE("Dprr.SamplingProbabilityClampsNoisyDegree") {
  auto dprr = Dprr::Create(50, 1.0, BudgetAllocation::kFixed);
  REQUIRE(dprr.ok());
  CHECK(dprr->SamplingProbability(-1000) == 0.0);
  CHECK(dprr->SamplingProbability(0) == 0.0);
  CHECK(dprr->SamplingProbability(49) == doctest::Approx(dprr->SamplingProbability(100000)));
  const double p = dprr->p();
  CHECK(dprr->SamplingProbability(10) == doctest::Approx(10.0 / (10.0 * (2 * p - 1) + 49.0 * (1 - p))));
  for (int d = 0; d < 60; ++d) {
    CHECK(dprr->SamplingProbability(d) >= 0.0);
    CHECK(dprr->SamplingProbability(d) <= 1.0);
  }
}

TEST_CASE("Dprr.OutputIsSortedValidAndAcceptsUnsortedInput") {
  auto dprr = Dprr::Create(1000, 1.0);
  REQUIRE(dprr.ok());
  SeededRandomSource rng(11);
  NoisyEdges out;
  const std::vector<std::uint32_t> neighbours = {999, 5, 17, 300, 4, 0};
  for (int i = 0; i < 200; ++i) {
    REQUIRE(dprr->Perturb(7, neighbours, rng, &out).ok());
    CHECK(std::is_sorted(out.neighbours.begin(), out.neighbours.end()));
    CHECK(std::adjacent_find(out.neighbours.begin(), out.neighbours.end()) == out.neighbours.end());
    for (auto v : out.neighbours) {
      CHECK(v < 1000);
      CHECK(v != 7);
    }
    CHECK(out.mechanism == EdgeMechanism::kDprr);
    CHECK(out.p == dprr->p());
    CHECK(out.q >= 0.0);
    CHECK(out.q <= 1.0);
    CHECK(out.eps1 + out.eps2 == doctest::Approx(1.0));
  }
}

TEST_CASE("Dprr.SameSeedSameOutput") {
  auto dprr = Dprr::Create(500, 2.0);
  REQUIRE(dprr.ok());
  SeededRandomSource a(5), b(5);
  NoisyEdges x, y;
  for (int i = 0; i < 20; ++i) {
    REQUIRE(dprr->Perturb(1, std::vector<std::uint32_t>{2, 3, 4, 400}, a, &x).ok());
    REQUIRE(dprr->Perturb(1, std::vector<std::uint32_t>{2, 3, 4, 400}, b, &y).ok());
    CHECK(x.neighbours == y.neighbours);
    CHECK(x.q == y.q);
  }
}

TEST_CASE("Dprr.EmptyListIsAllowed") {
  auto dprr = Dprr::Create(10, 3.0, BudgetAllocation::kFixed);
  REQUIRE(dprr.ok());
  SeededRandomSource rng(3);
  NoisyEdges out;
  CHECK(dprr->Perturb(0, {}, rng, &out).ok());
}

TEST_CASE("Dprr.StaysSparseOnALargeGraph") {
  // 10^6 users, degree 100: the output must be about as long as the input,
  // and produced without touching a million bits.
  auto dprr = Dprr::Create(1000000, 1.0);
  REQUIRE(dprr.ok());
  SeededRandomSource rng(12);
  std::vector<std::uint32_t> neighbours;
  for (std::uint32_t i = 0; i < 100; ++i) neighbours.push_back(i * 9973 + 1);
  NoisyEdges out;
  std::size_t total = 0;
  for (int i = 0; i < 100; ++i) {
    REQUIRE(dprr->Perturb(0, neighbours, rng, &out).ok());
    total += out.neighbours.size();
  }
  CHECK(total / 100.0 == doctest::Approx(100.0).epsilon(0.25));
}
