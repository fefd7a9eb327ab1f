// The parts of `ldpgraph experiment rounds`: the friend churn that changes
// the true graph, and the simulated devices that report it in rounds through
// their ledgers.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "dataset/generators.h"
#include "experiments/friend_churn.h"
#include "experiments/round_devices.h"
#include "ldpgraph/random_source.h"

namespace ldpgraph {
namespace {

GraphDataset Sbm(std::uint32_t nodes, double degree) {
  NodeDatasetSpec spec;
  spec.nodes = nodes;
  spec.mean_degree = degree;
  spec.features = 0;
  SeededRandomSource rng(7);
  return SyntheticNodeDataset(spec, rng);
}

std::vector<int> Labels(const GraphDataset& ds) {
  return std::vector<int>(ds.node_labels.begin(), ds.node_labels.end());
}

bool Symmetric(const CsrGraph& g) {
  for (std::uint32_t u = 0; u < g.num_nodes(); ++u) {
    for (std::uint32_t v : g.neighbours(u)) {
      if (v == u) return false;
      const Span<const std::uint32_t> back = g.neighbours(v);
      if (!std::binary_search(back.begin(), back.end(), u)) return false;
    }
  }
  return true;
}

EdgePolicy RrDegree(double epsilon) {
  EdgePolicy p;
  p.mechanism = EdgeMechanism::kRrDegree;
  p.epsilon = epsilon;
  p.allocation = BudgetAllocation::kFixed;  // eps1 = eps / 10, eps2 = 9 eps / 10
  return p;
}

TEST_CASE("FriendChurn.ChangesTheAskedShareKeepingSizeSymmetryAndHomophily") {
  const GraphDataset ds = Sbm(2000, 10);
  Result<std::unique_ptr<FriendChurn>> churn = FriendChurn::Create(ds.graphs[0], Labels(ds), ChurnOptions{});
  REQUIRE(churn.ok());
  const double start = (*churn)->target_homophily();
  CHECK(start == doctest::Approx(0.6).epsilon(0.1));
  std::uint64_t with_friends = 0;
  for (std::uint32_t u = 0; u < 2000; ++u) with_friends += ds.graphs[0].degree(u) > 0;
  for (int round = 0; round < 20; ++round) {
    const ChurnStep step = (*churn)->Step();
    CHECK(step.users_changing == static_cast<std::uint64_t>(std::llround(0.1 * static_cast<double>(with_friends))));
    // Sparse classes: a new friend is always found, so the size holds.
    CHECK(step.edges_made == step.edges_dropped);
    CHECK(step.edges_dropped >= step.users_changing);
    CHECK(step.changed.size() > step.users_changing);  // a friend's list changes too
    CHECK(std::is_sorted(step.changed.begin(), step.changed.end()));
  }
  const CsrGraph now = (*churn)->Graph();
  CHECK(now.num_entries() == ds.graphs[0].num_entries());
  CHECK(Symmetric(now));
  CHECK((*churn)->Homophily() == doctest::Approx(start).epsilon(0.05));
  // Reproducible: the same seed makes the same changes.
  Result<std::unique_ptr<FriendChurn>> again = FriendChurn::Create(ds.graphs[0], Labels(ds), ChurnOptions{});
  REQUIRE(again.ok());
  for (int round = 0; round < 20; ++round) (*again)->Step();
  CHECK((*again)->Graph().targets() == now.targets());
}

TEST_CASE("FriendChurn.RefusesBadFractionsLabelsAndDirectedGraphs") {
  const GraphDataset ds = Sbm(100, 4);
  for (double bad : {0.0, -0.1, 1.5, std::nan("")}) {
    ChurnOptions o;
    o.user_fraction = bad;
    CHECK(FriendChurn::Create(ds.graphs[0], Labels(ds), o).status().code() == StatusCode::kInvalidArgument);
    o = ChurnOptions{};
    o.friend_fraction = bad;
    CHECK(FriendChurn::Create(ds.graphs[0], Labels(ds), o).status().code() == StatusCode::kInvalidArgument);
  }
  CHECK(FriendChurn::Create(ds.graphs[0], std::vector<int>(99, 0), ChurnOptions{}).status().code() ==
        StatusCode::kInvalidArgument);
  const CsrGraph directed = CsrGraph::FromRows({{1}, {}});
  const Status s = FriendChurn::Create(directed, {0, 1}, ChurnOptions{}).status();
  CHECK(s.code() == StatusCode::kInvalidArgument);
  CHECK(s.message().find("user 0 lists 1") != std::string::npos);
}

TEST_CASE("RoundDevices.AnUnchangedGraphCostsOneRoundWhileFreshNoiseCostsEveryRound") {
  const GraphDataset ds = Sbm(300, 6);
  Result<std::unique_ptr<RoundDevices>> devices = RoundDevices::Create(RrDegree(4), 300, 11);
  REQUIRE(devices.ok());
  CsrGraph first_rows;
  for (std::uint32_t round = 1; round <= 10; ++round) {
    Result<DeviceRound> r = (*devices)->Report(round, ds.graphs[0], true);
    REQUIRE(r.ok());
    CHECK(r->naive_loss == doctest::Approx(4.0 * round));
    for (double loss : r->loss) CHECK(loss == doctest::Approx(4.0));
    CHECK(r->reports_changed == 0);
    const CsrGraph rows = r->memoised.rows.ToCsr();
    if (round == 1) {
      first_rows = rows;
    } else {
      CHECK(rows.targets() == first_rows.targets());  // the same report, sent again
      CHECK(r->fresh.rows.ToCsr().targets() != first_rows.targets());  // fresh noise moves
    }
  }
}

TEST_CASE("RoundDevices.OneChangedFriendshipCostsItsEndsTheOtherBitAndANewDegree") {
  // A path 0-1-2-3; in round 2 users 0 and 3 become friends.
  const CsrGraph before = CsrGraph::FromUndirectedEdges(4, {{0, 1}, {1, 2}, {2, 3}});
  const CsrGraph after = CsrGraph::FromUndirectedEdges(4, {{0, 1}, {1, 2}, {2, 3}, {0, 3}});
  Result<std::unique_ptr<RoundDevices>> devices = RoundDevices::Create(RrDegree(4), 4, 3);
  REQUIRE(devices.ok());
  REQUIRE((*devices)->Report(1, before, false).ok());
  Result<DeviceRound> r = (*devices)->Report(2, after, false);
  REQUIRE(r.ok());
  // Users 0 and 3: the new friend's 1 bit beside her earlier 0 bit (2 eps2)
  // and a second distinct degree (2 eps1); users 1 and 2 are unchanged.
  CHECK(r->loss[0] == doctest::Approx(2 * 3.6 + 2 * 0.4));
  CHECK(r->loss[3] == doctest::Approx(2 * 3.6 + 2 * 0.4));
  CHECK(r->loss[1] == doctest::Approx(4.0));
  CHECK(r->loss[2] == doctest::Approx(4.0));
  CHECK(r->reports_changed <= 2);
  CHECK(r->fresh.num_users() == 0);  // not asked for
  // Back to the old list: both bits and both degrees are already spent.
  Result<DeviceRound> back = (*devices)->Report(3, before, false);
  REQUIRE(back.ok());
  CHECK(back->loss[0] == doctest::Approx(8.0));
}

TEST_CASE("RoundDevices.RefusesWhatItCannotSimulate") {
  EdgePolicy lap;
  lap.mechanism = EdgeMechanism::kLocalLap;
  CHECK(RoundDevices::Create(lap, 10, 1).status().code() == StatusCode::kInvalidArgument);
  EdgePolicy bad = RrDegree(-1);
  CHECK(!RoundDevices::Create(bad, 10, 1).ok());
  Result<std::unique_ptr<RoundDevices>> devices = RoundDevices::Create(RrDegree(4), 4, 3);
  REQUIRE(devices.ok());
  const CsrGraph path = CsrGraph::FromUndirectedEdges(4, {{0, 1}, {1, 2}});
  CHECK((*devices)->Report(1, CsrGraph::FromUndirectedEdges(5, {{0, 1}}), false).status().code() ==
        StatusCode::kInvalidArgument);
  REQUIRE((*devices)->Report(2, path, false).ok());
  // A round not above the last: the ledgers refuse it.
  CHECK((*devices)->Report(2, path, false).ok());  // the same round again is a retry
  CHECK((*devices)->Report(1, path, false).status().code() == StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace ldpgraph
