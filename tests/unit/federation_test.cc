// FedCog's decoupled GCN (federation/): the split of a graph among parties
// and the layer computed by internal propagation, an exchange of border
// states and border propagation, against GCN on the whole graph.
#include <doctest/doctest.h>

#include "dataset/generators.h"
#include "experiments/fedcog_experiment.h"
#include "federation/coupled_graph.h"
#include "federation/decoupled_gcn.h"
#include "federation/federated_sgc.h"
#include "federation/partition.h"
#include "ldpgraph/samplers.h"
#include "support/decoupled_check.h"

using namespace ldpgraph;

namespace {

std::vector<int> RandomParties(std::uint32_t n, int parties, RandomSource& rng) {
  std::vector<int> party_of(n);
  for (std::uint32_t u = 0; u < n; ++u) party_of[u] = static_cast<int>(u % parties);  // none empty
  for (std::uint32_t u = n - 1; u > 0; --u) std::swap(party_of[u], party_of[UniformBelow(rng, u + 1)]);
  return party_of;
}

}  // namespace

TEST_CASE("CoupledGraph.EveryEdgeIsInternalOrBorderAndDegreesAreWhole") {
  SeededRandomSource rng(3);
  const CsrGraph g = ErdosRenyi(60, 0.1, rng);
  const std::vector<int> party_of = RandomParties(60, 3, rng);
  Result<std::vector<PartyGraph>> parties = DecoupleGraph(g, party_of, 3);
  REQUIRE(parties.ok());
  std::uint64_t internal = 0, border = 0, users = 0;
  for (const PartyGraph& p : *parties) {
    users += p.num_users();
    internal += p.internal.num_entries();
    border += p.border_targets.size();
    for (std::uint32_t v = 0; v < p.num_users(); ++v) {
      CHECK(party_of[p.users[v]] == p.party);
      CHECK(p.degree[v] == g.degree(p.users[v]));
      CHECK(p.degree[v] == p.internal.degree(v) + (p.border_offsets[v + 1] - p.border_offsets[v]));
      for (std::uint64_t e = p.border_offsets[v]; e < p.border_offsets[v + 1]; ++e) {
        CHECK(party_of[p.border_targets[e]] != p.party);
        CHECK(party_of[p.border_targets[e]] == p.border_party[e]);
      }
    }
  }
  CHECK(users == 60);
  CHECK(internal + border == g.num_entries());
  CHECK(border > 0);
}

TEST_CASE("CoupledGraph.RefusesABadSplit") {
  const CsrGraph g = CsrGraph::FromRows({{1}, {0}, {}});
  CHECK(DecoupleGraph(g, {0, 1}, 2).status().code() == StatusCode::kInvalidArgument);        // sizes
  CHECK(DecoupleGraph(g, {0, 2, 1}, 2).status().code() == StatusCode::kInvalidArgument);     // out of range
  CHECK(DecoupleGraph(g, {0, -1, 1}, 2).status().code() == StatusCode::kInvalidArgument);
  CHECK(DecoupleGraph(g, {0, 0, 0}, 2).status().code() == StatusCode::kInvalidArgument);     // party 1 empty
  CHECK(DecoupleGraph(g, {0, 0, 0}, 0).status().code() == StatusCode::kInvalidArgument);
}

TEST_CASE("DecoupledGcn.EqualsGcnOnTheWholeGraph") {
  // Two communities, dense features; 1, 2, 3 and 5 parties, SELU and ReLU.
  SeededRandomSource rng(8);
  const CsrGraph g = StochasticBlockModel({120, 80}, {{0.08, 0.01}, {0.01, 0.1}}, rng);
  Matrix x(200, 12);
  for (Eigen::Index i = 0; i < x.size(); ++i) x.data()[i] = static_cast<float>(UniformUnit(rng) - 0.5);
  for (int parties : {1, 2, 3, 5}) {
    for (bool selu : {true, false}) {
      const double gap = testing::DecoupledGcnGap(g, x, RandomParties(200, parties, rng), parties, selu, 16, 3, 4);
      CAPTURE(parties);
      CHECK(gap < 1e-5);
    }
  }
}

TEST_CASE("DecoupledGcn.PartiesSendSumsOverTheirUsersForTheOthers") {
  // Party 0 holds users 0 and 1, both friends of user 2 (party 1), who is
  // also a friend of user 3 (party 1). Party 0 sends party 1 one row for
  // user 2, the sum of its two users' states: never either state alone.
  const CsrGraph g = CsrGraph::FromRows({{2}, {2}, {0, 1, 3}, {2}});
  Result<std::vector<PartyGraph>> parties = DecoupleGraph(g, {0, 0, 1, 1}, 2);
  REQUIRE(parties.ok());
  Matrix z(2, 2);
  z << 1, 2, 3, 4;
  const PartyGraph& zero = (*parties)[0];
  const Matrix scaled = ScaledStates(zero, z);  // degrees 1 and 1: rows over sqrt(2)
  const std::vector<BorderMessage> sent = BorderMessages(zero, scaled);
  REQUIRE(sent.size() == 1);
  CHECK(sent[0].to_party == 1);
  REQUIRE(sent[0].users == std::vector<std::uint32_t>{2});
  CHECK(sent[0].rows(0, 0) == doctest::Approx(4 / std::sqrt(2.0)));
  CHECK(sent[0].rows(0, 1) == doctest::Approx(6 / std::sqrt(2.0)));
}

TEST_CASE("DecoupledGcn.AMissingOrMisaddressedSumIsAnError") {
  const CsrGraph g = CsrGraph::FromRows({{1}, {0, 2}, {1}});
  Result<std::vector<PartyGraph>> parties = DecoupleGraph(g, {0, 1, 1}, 2);
  REQUIRE(parties.ok());
  const PartyGraph& first = (*parties)[0];  // user 0, whose friend 1 is in party 1
  const Matrix scaled = ScaledStates(first, Matrix::Ones(1, 4));
  Result<Matrix> alone = PropagateLayer(first, scaled, {});
  CHECK(alone.status().code() == StatusCode::kFailedPrecondition);
  CHECK(alone.status().message().find("user 0") != std::string::npos);
  BorderMessage wrong_width{1, 0, {0}, Matrix::Ones(1, 3)};
  CHECK(PropagateLayer(first, scaled, {wrong_width}).status().code() == StatusCode::kInvalidArgument);
  BorderMessage not_ours{1, 0, {2}, Matrix::Ones(1, 4)};
  CHECK(PropagateLayer(first, scaled, {not_ours}).status().code() == StatusCode::kInvalidArgument);
  BorderMessage right{1, 0, {0}, Matrix::Ones(1, 4)};
  Result<Matrix> h = PropagateLayer(first, scaled, {right});
  REQUIRE(h.ok());
  // (S_0 + the sum from party 1) / sqrt(2), S_0 = 1 / sqrt(2): 1/2 + 1/sqrt(2).
  CHECK((*h)(0, 0) == doctest::Approx(0.5 + 1 / std::sqrt(2.0)));
}

TEST_CASE("FederatedSgc.PropagationIsSgcsAndTrainingIsTheCentralisedOnes") {
  // Two communities whose features say little alone; 1 party (centralised)
  // against 3 and 5: the same propagated features, the same accuracy.
  SeededRandomSource rng(21);
  const std::uint32_t n = 300;
  const CsrGraph g = StochasticBlockModel({150, 150}, {{0.05, 0.005}, {0.005, 0.05}}, rng);
  Matrix x(n, 6);
  std::vector<int> labels(n), split(n);
  for (std::uint32_t u = 0; u < n; ++u) {
    labels[u] = u < 150 ? 0 : 1;
    for (Eigen::Index j = 0; j < x.cols(); ++j) x(u, j) = static_cast<float>(UniformUnit(rng) - 0.5 + (labels[u] ? 0.1 : -0.1));
    split[u] = static_cast<int>(UniformBelow(rng, 4)) % 3;  // half train
  }
  FederatedSgcOptions o;
  o.max_epochs = 100;
  o.seed = 5;
  const auto one = testing::CheckFederatedSgc(g, x, labels, split, std::vector<int>(n, 0), 1, 2, 2, o);
  CHECK(one.propagation_gap < 1e-5);
  MESSAGE("centralised SGC: test " << one.run.test_accuracy << ", best round " << one.run.best_epoch);
  CHECK(one.run.test_accuracy > 0.8);
  for (int parties : {3, 5}) {
    const auto many = testing::CheckFederatedSgc(g, x, labels, split, RandomParties(n, parties, rng), parties, 2, 2, o);
    CAPTURE(parties);
    CHECK(many.propagation_gap < 1e-5);
    CHECK(many.run.test_accuracy == one.run.test_accuracy);
    CHECK(many.run.best_epoch == one.run.best_epoch);
    CHECK(many.run.training_bytes == one.run.training_bytes * static_cast<std::uint64_t>(parties));
  }
}

TEST_CASE("FederatedSgc.RefusesInputsThatDisagree") {
  const std::vector<Matrix> x = {Matrix::Ones(2, 3), Matrix::Ones(1, 4)};
  PartyTask a{{0, 1}, {0}, {1}, {}}, b{{0}, {0}, {}, {}};
  CHECK(TrainFederatedSgc(x, {a, b}, 2, {}).status().code() == StatusCode::kInvalidArgument);  // widths
  CHECK(TrainFederatedSgc({x[0]}, {a}, 1, {}).status().code() == StatusCode::kInvalidArgument);  // classes
  PartyTask none{{0, 1}, {}, {0}, {1}};
  CHECK(TrainFederatedSgc({x[0]}, {none}, 2, {}).status().code() == StatusCode::kInvalidArgument);  // no training
  CHECK(DecoupledPropagate({}, {x[0]}, 1).status().code() == StatusCode::kInvalidArgument);
}

TEST_CASE("Partition.RandomIsBalancedAndCommunitiesCutFewerFriendships") {
  SeededRandomSource rng(31);
  const CsrGraph g = StochasticBlockModel({100, 100, 100, 100}, {{0.08, 0.002, 0.002, 0.002},
                                                                 {0.002, 0.08, 0.002, 0.002},
                                                                 {0.002, 0.002, 0.08, 0.002},
                                                                 {0.002, 0.002, 0.002, 0.08}}, rng);
  for (const char* kind : {"random", "community"}) {
    Result<std::vector<int>> p = PartitionUsers(g, kind, 4, 7);
    REQUIRE(p.ok());
    std::vector<int> size(4, 0);
    for (int party : *p) {
      REQUIRE((party >= 0 && party < 4));
      ++size[static_cast<std::size_t>(party)];
    }
    for (int s : size) CHECK(s == 100);
    CHECK(*PartitionUsers(g, kind, 4, 7) == *p);  // seeded
  }
  const std::uint64_t random = CrossEdges(g, *PartitionUsers(g, "random", 4, 7));
  const std::uint64_t community = CrossEdges(g, *PartitionUsers(g, "community", 4, 7));
  MESSAGE("friendships across parties: random " << random << ", community " << community);
  CHECK(community * 4 < random);
  CHECK(PartitionUsers(g, "metis", 4, 7).status().code() == StatusCode::kInvalidArgument);
  CHECK(PartitionUsers(g, "random", 0, 7).status().code() == StatusCode::kInvalidArgument);
  CHECK(PartitionUsers(g, "random", 401, 7).status().code() == StatusCode::kInvalidArgument);
}

TEST_CASE("FedCogExperiment.RefusesBadOptionsBeforeAnyRun") {
  GraphDataset ds;
  ds.graphs.push_back(CsrGraph::FromRows({{1}, {0}}));
  FedCogExperimentOptions o;
  o.out_dir = "/nonexistent/fedcog";  // never reached
  o.partitions = {"metis"};
  CHECK(RunFedCogExperiment(ds, o).code() == StatusCode::kInvalidArgument);
  o.partitions = {"random"};
  o.parties = {1};
  CHECK(RunFedCogExperiment(ds, o).code() == StatusCode::kInvalidArgument);
  o.parties = {2};
  o.methods = {"fedavg"};
  CHECK(RunFedCogExperiment(ds, o).code() == StatusCode::kInvalidArgument);
  o.methods = {"fedcog"};
  CHECK(RunFedCogExperiment(ds, o).code() == StatusCode::kInvalidArgument);  // no features
}
