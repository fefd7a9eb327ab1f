// RR, LocalLap's client part, the non-private user and the policy factory.
#include "ldpgraph/edge_mechanism.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "ldpgraph/edge_randomizers.h"
#include "ldpgraph/local_lap.h"
#include "ldpgraph/non_private.h"
#include "ldpgraph/randomized_response.h"

using namespace ldpgraph;

TEST_CASE("RandomizedResponse.FailsEpsilonNan") {
  CHECK(RandomizedResponse::Create(10, std::nan("")).status().code() == StatusCode::kInvalidArgument);
}
TEST_CASE("RandomizedResponse.FailsEpsilonInfinite") {
  CHECK(RandomizedResponse::Create(10, std::numeric_limits<double>::infinity()).status().code() ==
        StatusCode::kInvalidArgument);
}
TEST_CASE("RandomizedResponse.FailsEpsilonZero") {
  CHECK(RandomizedResponse::Create(10, 0.0).status().code() == StatusCode::kInvalidArgument);
}
TEST_CASE("RandomizedResponse.FailsEpsilonNegative") {
  CHECK(RandomizedResponse::Create(10, -2.0).status().code() == StatusCode::kInvalidArgument);
}
TEST_CASE("RandomizedResponse.FailsNBelowTwo") {
  CHECK(RandomizedResponse::Create(1, 1.0).status().code() == StatusCode::kInvalidArgument);
}
TEST_CASE("RandomizedResponse.KeepProbability") {
  auto rr = RandomizedResponse::Create(10, 1.0);
  REQUIRE(rr.ok());
  CHECK(rr->p() == doctest::Approx(std::exp(1.0) / (std::exp(1.0) + 1.0)));
}
TEST_CASE("RandomizedResponse.HugeEpsilonKeepsTheTrueList") {
  auto rr = RandomizedResponse::Create(1000, 200.0);
  REQUIRE(rr.ok());
  SeededRandomSource rng(1);
  NoisyEdges out;
  REQUIRE(rr->Perturb(3, std::vector<std::uint32_t>{9, 1, 500}, rng, &out).ok());
  CHECK(out.neighbours == std::vector<std::uint32_t>{1, 9, 500});
}
TEST_CASE("RandomizedResponse.FailsNeighbourEqualsUser") {
  auto rr = RandomizedResponse::Create(10, 1.0);
  SeededRandomSource rng(1);
  NoisyEdges out;
  CHECK(rr->Perturb(2, std::vector<std::uint32_t>{2}, rng, &out).code() == StatusCode::kInvalidArgument);
}

TEST_CASE("LocalLap.FailsEpsilonNan") {
  CHECK(LocalLapClient::Create(10, std::nan("")).status().code() == StatusCode::kInvalidArgument);
}
TEST_CASE("LocalLap.FailsEpsilonZero") {
  CHECK(LocalLapClient::Create(10, 0.0).status().code() == StatusCode::kInvalidArgument);
}
TEST_CASE("LocalLap.FailsResolutionZero") {
  CHECK(LocalLapClient::Create(10, 1.0, BudgetAllocation::kFixed, 0, 0).status().code() ==
        StatusCode::kInvalidArgument);
}
TEST_CASE("LocalLap.FailsNBelowTwo") {
  CHECK(LocalLapClient::Create(1, 1.0).status().code() == StatusCode::kInvalidArgument);
}
TEST_CASE("LocalLap.SendsOneValuePerOtherUser") {
  auto ll = LocalLapClient::Create(50, 100.0, BudgetAllocation::kFixed, 0, 16);
  REQUIRE(ll.ok());
  SeededRandomSource rng(2);
  NoisyEdges out;
  REQUIRE(ll->Perturb(10, std::vector<std::uint32_t>{3, 11, 49}, rng, &out).ok());
  REQUIRE(out.values.size() == 49u);
  // With eps2 = 90 and resolution 16 the noise is tiny: neighbours stand out.
  for (std::uint32_t j = 0, slot = 0; j < 50; ++j) {
    if (j == 10) continue;
    const bool edge = j == 3 || j == 11 || j == 49;
    CHECK((out.values[slot] > 8) == edge);
    ++slot;
  }
  CHECK(std::llabs(out.noisy_degree - 3) <= 2);
  CHECK(out.eps1 == doctest::Approx(10.0));
}

TEST_CASE("NonPrivate.SendsTheSortedTrueList") {
  auto np = NonPrivateEdges::Create(10);
  REQUIRE(np.ok());
  SeededRandomSource rng(3);
  NoisyEdges out;
  REQUIRE(np->Perturb(0, std::vector<std::uint32_t>{9, 2, 5}, rng, &out).ok());
  CHECK(out.neighbours == std::vector<std::uint32_t>{2, 5, 9});
  CHECK(std::isinf(out.epsilon));
}
TEST_CASE("NonPrivate.FailsNeighbourOutOfRange") {
  auto np = NonPrivateEdges::Create(10);
  SeededRandomSource rng(3);
  NoisyEdges out;
  CHECK(np->Perturb(0, std::vector<std::uint32_t>{10}, rng, &out).code() == StatusCode::kOutOfRange);
}

TEST_CASE("EdgePolicy.FactoryBuildsEachMechanism") {
  for (auto m : {EdgeMechanism::kNone, EdgeMechanism::kDprr, EdgeMechanism::kRr, EdgeMechanism::kLocalLap}) {
    EdgePolicy policy;
    policy.mechanism = m;
    policy.epsilon = 2.0;
    auto r = MakeEdgeRandomizer(100, policy);
    REQUIRE(r.ok());
    CHECK((*r)->mechanism() == m);
    CHECK((*r)->num_users() == 100u);
  }
}
TEST_CASE("EdgePolicy.NamesRoundTrip") {
  for (auto m : {EdgeMechanism::kNone, EdgeMechanism::kDprr, EdgeMechanism::kRr, EdgeMechanism::kLocalLap}) {
    CHECK(*ParseEdgeMechanism(EdgeMechanismName(m)) == m);
  }
  CHECK(ParseEdgeMechanism("laplace").status().code() == StatusCode::kInvalidArgument);
  CHECK(*ParseBudgetAllocation("fixed") == BudgetAllocation::kFixed);
  CHECK(ParseBudgetAllocation("even").status().code() == StatusCode::kInvalidArgument);
}
