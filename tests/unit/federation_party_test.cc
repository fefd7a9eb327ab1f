// One FedCog party as a daemon runs it (federation/): shares dealt from a
// whole graph and rebuilt as PartyGraphs, propagation and training driven
// step by step through the wire encoding, against the in-process
// computation; LNNC's added edges; the wire decoders' refusals.
#include <doctest/doctest.h>

#include <cmath>

#include "dataset/generators.h"
#include "federation/fedcog_party.h"
#include "federation/federated_sgc.h"
#include "federation/federation_wire.h"
#include "federation/lnnc.h"
#include "federation/party_share.h"
#include "federation/share_split.h"
#include "ldpgraph/samplers.h"
#include "support/decoupled_check.h"

using namespace ldpgraph;

namespace {

const std::vector<std::string> kNames = {"north", "east", "west"};

struct Fixture {
  CsrGraph graph;
  Matrix x;
  std::vector<int> labels, party_of;
  HeldGraphParts whole;
};

// An ER graph whose features and labels depend on a hidden class.
Fixture MakeFixture(std::uint32_t n, std::uint64_t seed) {
  SeededRandomSource rng(seed);
  Fixture f;
  f.graph = ErdosRenyi(n, 6.0 / n, rng);
  f.x = Matrix::Zero(n, 5);
  f.whole.num_nodes = n;
  f.whole.classes = 3;
  f.whole.feature_dims = 5;
  for (std::uint32_t u = 0; u < n; ++u) {
    const int y = static_cast<int>(UniformBelow(rng, 3));
    f.labels.push_back(y);
    f.whole.labels.push_back(y);
    f.party_of.push_back(static_cast<int>(UniformBelow(rng, 3)));
    for (int k = 0; k < 5; ++k) {
      const float v = static_cast<float>(UniformUnit(rng)) + (k == y ? 1.0f : 0.0f);
      f.x(u, k) = v;
      f.whole.features.push_back({u, static_cast<std::uint64_t>(k), v});
    }
    for (std::uint32_t v : f.graph.neighbours(u)) {
      if (u < v) f.whole.edges.emplace_back(u, v);
    }
  }
  return f;
}

std::vector<PartyShare> Shares(const Fixture& f) {
  Result<std::vector<HeldGraphParts>> parts = SplitIntoShares(f.whole, f.party_of, kNames);
  REQUIRE(parts.ok());
  std::vector<PartyShare> out;
  for (std::size_t p = 0; p < parts->size(); ++p) {
    Result<HeldGraph> held = MakeHeldGraph((*parts)[p]);
    REQUIRE_MESSAGE(held.ok(), held.status().ToString());
    Result<PartyShare> share = MakePartyShare(*held, kNames, kNames[p]);
    REQUIRE_MESSAGE(share.ok(), share.status().ToString());
    out.push_back(std::move(share).value());
  }
  return out;
}

// Step k of propagation as the coordinator runs it: every party's messages
// through the wire, then each party's share of them.
void PropagateOverWire(std::vector<FedCogParty>& parties, int steps) {
  for (int k = 1; k <= steps; ++k) {
    std::vector<BorderMessage> all;
    for (FedCogParty& p : parties) {
      Result<std::vector<BorderMessage>> sent = p.Send(k);
      REQUIRE(sent.ok());
      Result<std::vector<BorderMessage>> back = DecodeMessages(EncodeMessages(*sent));
      REQUIRE(back.ok());
      for (BorderMessage& m : *back) all.push_back(std::move(m));
    }
    for (FedCogParty& p : parties) {
      std::vector<BorderMessage> mine;
      for (const BorderMessage& m : all) {
        if (m.to_party == p.share().graph.party) mine.push_back(m);
      }
      REQUIRE(p.Receive(k, DecodeMessages(EncodeMessages(mine)).value()).ok());
    }
  }
}

}  // namespace

TEST_CASE("PartyShare.DealtSharesRebuildTheDecoupledGraph") {
  const Fixture f = MakeFixture(120, 5);
  const std::vector<PartyShare> shares = Shares(f);
  const std::vector<PartyGraph> direct = testing::SplitParties(f.graph, f.party_of, 3);
  for (std::size_t p = 0; p < 3; ++p) {
    const PartyGraph& a = shares[p].graph;
    const PartyGraph& b = direct[p];
    CHECK(a.party == b.party);
    CHECK(a.users == b.users);
    CHECK(a.degree == b.degree);
    CHECK(a.internal.offsets() == b.internal.offsets());
    CHECK(a.internal.targets() == b.internal.targets());
    CHECK(a.border_offsets == b.border_offsets);
    CHECK(a.border_targets == b.border_targets);
    CHECK(a.border_party == b.border_party);
    for (std::uint32_t v = 0; v < a.num_users(); ++v) {
      CHECK(shares[p].labels[v] == f.labels[a.users[v]]);
      CHECK(shares[p].features.row(v) == f.x.row(a.users[v]));
    }
  }
}

TEST_CASE("PartyShare.RefusesAShareThatDoesNotFitTheRun") {
  const Fixture f = MakeFixture(40, 2);
  HeldGraphParts share = SplitIntoShares(f.whole, f.party_of, kNames).value()[0];
  const HeldGraph held = MakeHeldGraph(share).value();
  CHECK(MakePartyShare(held, {"north", "east"}, "north").status().code() == StatusCode::kInvalidArgument);  // west?
  CHECK(MakePartyShare(held, kNames, "south").status().code() == StatusCode::kInvalidArgument);
  CHECK(MakePartyShare(held, {"north", "east", "west", "east"}, "north").status().code() ==
        StatusCode::kInvalidArgument);
  share.keys.clear();
  share.border.clear();
  CHECK(MakePartyShare(MakeHeldGraph(share).value(), kNames, "north").status().code() == StatusCode::kInvalidArgument);
  std::vector<int> one_empty(40, 0);
  CHECK(SplitIntoShares(f.whole, one_empty, kNames).status().code() == StatusCode::kInvalidArgument);
}

TEST_CASE("FedCogParty.StepByStepOverTheWireEqualsInProcessTraining") {
  const Fixture f = MakeFixture(150, 7);
  std::vector<PartyShare> shares = Shares(f);
  std::vector<FedCogParty> parties;
  std::vector<PartyTask> tasks;
  for (std::size_t p = 0; p < 3; ++p) {
    tasks.push_back(SplitPartyUsers(shares[p], kNames[p], 11, 0.5, 0.25));
    parties.emplace_back(shares[p], tasks.back());
  }
  PropagateOverWire(parties, 2);
  const std::vector<PartyGraph> direct = testing::SplitParties(f.graph, f.party_of, 3);
  Result<std::vector<Matrix>> propagated = DecoupledPropagate(direct, testing::LocalRows(direct, f.x), 2);
  REQUIRE(propagated.ok());
  FederatedSgcOptions o;
  o.max_epochs = 40;
  o.seed = 4;
  Result<FederatedSgcRun> in_process = TrainFederatedSgc(*propagated, tasks, 3, o);
  REQUIRE(in_process.ok());
  Result<FederatedSgcRun> wired = DriveFederatedSgc(
      3, 5, 3, o, [&](std::size_t p, const std::vector<Matrix>& weights, bool gradient) -> Result<PartyRound> {
        Result<std::vector<Matrix>> w = DecodeMatrices(EncodeMatrices(weights));
        if (!w.ok()) return w.status();
        Result<PartyRound> r = parties[p].Round(*w, gradient);
        if (!r.ok()) return r.status();
        return DecodePartyRound(EncodePartyRound(*r));
      });
  REQUIRE(wired.ok());
  CHECK(wired->best_epoch == in_process->best_epoch);
  CHECK(wired->val_accuracy == in_process->val_accuracy);
  CHECK(wired->test_accuracy == in_process->test_accuracy);
  REQUIRE(wired->weights.size() == 2);
  CHECK((wired->weights[0] - in_process->weights[0]).cwiseAbs().maxCoeff() < 1e-5f);
  CHECK(in_process->val_accuracy > 0.5);  // the features carry the class
}

TEST_CASE("FedCogParty.RepeatsAStepForRetriesAndRefusesOneOutOfOrder") {
  const Fixture f = MakeFixture(60, 8);
  std::vector<PartyShare> shares = Shares(f);
  FedCogParty party(shares[0], SplitPartyUsers(shares[0], kNames[0], 1, 0.5, 0.25));
  CHECK(party.Send(2).status().code() == StatusCode::kFailedPrecondition);
  CHECK(party.Receive(1, {}).code() == StatusCode::kFailedPrecondition);  // not asked for yet
  const std::string first = EncodeMessages(party.Send(1).value());
  CHECK(EncodeMessages(party.Send(1).value()) == first);  // the same answer again
  CHECK(party.steps_done() == 0);
  // Nothing from the parties its users have friends in: refused, still at 0.
  CHECK(party.Receive(1, {}).code() == StatusCode::kFailedPrecondition);
  CHECK(party.steps_done() == 0);
}

TEST_CASE("Lnnc.GivesEachLoneBorderUserHerNearestNeighbourInAngle") {
  // Users 0-3 in this party; 0 and 3 have only friends elsewhere, 1-2 are friends.
  PartyGraph g;
  g.users = {0, 1, 2, 3};
  g.internal = CsrGraph::FromRows({{}, {2}, {1}, {}});
  g.border_offsets = {0, 1, 1, 1, 3};
  g.border_targets = {10, 10, 11};
  g.border_party = {1, 1, 1};
  g.degree = {1, 1, 1, 2};
  Matrix x(4, 2);
  x << 1, 0,   // user 0: nearest in angle is user 2 (0.9, 0.1), not user 1
      0, 1, 10, 1, 0.1f, 1;  // user 3: nearest is user 1
  CHECK(ConnectLoneBorderUsers(x, &g) == 2);
  CHECK(std::vector<std::uint32_t>(g.internal.neighbours(0).begin(), g.internal.neighbours(0).end()) ==
        std::vector<std::uint32_t>{2});
  CHECK(std::vector<std::uint32_t>(g.internal.neighbours(3).begin(), g.internal.neighbours(3).end()) ==
        std::vector<std::uint32_t>{1});
  CHECK(g.degree == std::vector<std::uint32_t>{2, 2, 2, 3});
  CHECK(ConnectLoneBorderUsers(x, &g) == 0);  // none left
  PartyGraph one;
  one.users = {5};
  one.internal = CsrGraph::FromRows({{}});
  one.border_offsets = {0, 1};
  one.border_targets = {6};
  one.border_party = {1};
  one.degree = {1};
  CHECK(ConnectLoneBorderUsers(Matrix::Ones(1, 2), &one) == 0);
}

TEST_CASE("Lnnc.LeavesNoPartyUserWithOnlyForeignFriends") {
  const Fixture f = MakeFixture(200, 9);
  for (PartyShare& s : Shares(f)) {
    ConnectLoneBorderUsers(s.features, &s.graph);
    const PartyGraph& g = s.graph;
    std::uint64_t degree_sum = 0, entries = g.internal.num_entries() + g.border_targets.size();
    for (std::uint32_t v = 0; v < g.num_users(); ++v) {
      degree_sum += g.degree[v];
      if (g.border_offsets[v + 1] > g.border_offsets[v]) CHECK(g.internal.degree(v) > 0);
    }
    CHECK(degree_sum == entries);
  }
}

TEST_CASE("FederationWire.RoundTripsAndRefusesDamage") {
  BorderMessage m;
  m.from_party = 2;
  m.to_party = 0;
  m.users = {3, 9};
  m.rows = Matrix::Random(2, 3);
  const std::string bytes = EncodeMessages({m});
  Result<std::vector<BorderMessage>> back = DecodeMessages(bytes);
  REQUIRE(back.ok());
  CHECK(back->at(0).users == m.users);
  CHECK(back->at(0).rows == m.rows);
  for (std::size_t cut = 0; cut < bytes.size(); ++cut) {
    CHECK(DecodeMessages(bytes.substr(0, cut)).status().code() == StatusCode::kInvalidArgument);
  }
  CHECK(!DecodeMessages(bytes + "x").ok());
  BorderMessage bad = m;
  bad.users = {9, 3};
  CHECK(!DecodeMessages(EncodeMessages({bad})).ok());
  bad = m;
  bad.rows(1, 1) = NAN;
  CHECK(!DecodeMessages(EncodeMessages({bad})).ok());
  CHECK(!DecodeMatrices(EncodeMessages({m})).ok());  // the wrong kind of body

  PartyRound r;
  r.train = 5;
  r.val = 4;
  r.val_right = 3;
  r.gradient = {Matrix::Ones(2, 2)};
  const std::string round = EncodePartyRound(r);
  CHECK(DecodePartyRound(round).value().val_right == 3);
  for (std::size_t cut = 0; cut < round.size(); ++cut) CHECK(!DecodePartyRound(round.substr(0, cut)).ok());
  r.val_right = 5;  // more right than asked
  CHECK(!DecodePartyRound(EncodePartyRound(r)).ok());
}
