// The edge-inclusion game: its targets are true edges forming a matching,
// the kept ones stay in the game's graph and the removed ones leave it with
// nothing else touched, and the coin is fair.
#include "audit/edge_game.h"

#include <doctest/doctest.h>

#include <set>

using namespace ldpgraph;

namespace {

// A 30 x 30 grid: 1,740 edges, a perfect matching exists.
CsrGraph Grid() {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
  for (std::uint32_t r = 0; r < 30; ++r) {
    for (std::uint32_t c = 0; c < 30; ++c) {
      const std::uint32_t u = r * 30 + c;
      if (c + 1 < 30) edges.emplace_back(u, u + 1);
      if (r + 1 < 30) edges.emplace_back(u, u + 30);
    }
  }
  return CsrGraph::FromUndirectedEdges(900, edges);
}

}  // namespace

TEST_CASE("EdgeGame.TargetsAreAMatchingOfTrueEdgesAndOnlyTheRemovedLeave") {
  const CsrGraph g = Grid();
  Result<EdgeGame> game = PlayEdgeGame(g, 200, 5);
  REQUIRE(game.ok());
  CHECK(game->kept.size() + game->removed.size() == 200);
  std::set<std::uint32_t> users;
  for (const auto* list : {&game->kept, &game->removed}) {
    for (const UserPair& p : *list) {
      CHECK(p.first < p.second);
      CHECK(Adjacent(g, p.first, p.second));
      CHECK(users.insert(p.first).second);  // no user in two targets
      CHECK(users.insert(p.second).second);
    }
  }
  for (const UserPair& p : game->kept) CHECK(Adjacent(game->graph, p.first, p.second));
  for (const UserPair& p : game->removed) {
    CHECK_FALSE(Adjacent(game->graph, p.first, p.second));
    CHECK_FALSE(Adjacent(game->graph, p.second, p.first));
  }
  CHECK(game->graph.num_entries() == g.num_entries() - 2 * game->removed.size());
  // A fair coin: 200 flips land within 5 standard deviations of 100.
  CHECK(game->kept.size() > 65);
  CHECK(game->kept.size() < 135);
  // The same seed plays the same game.
  Result<EdgeGame> again = PlayEdgeGame(g, 200, 5);
  REQUIRE(again.ok());
  CHECK(again->kept == game->kept);
  CHECK(again->removed == game->removed);
}

TEST_CASE("EdgeGame.AskingForMoreTargetsThanAMatchingHoldsGivesTheMatching") {
  const CsrGraph star = CsrGraph::FromUndirectedEdges(5, {{0, 1}, {0, 2}, {0, 3}, {3, 4}});
  Result<EdgeGame> game = PlayEdgeGame(star, 100, 1);
  REQUIRE(game.ok());
  CHECK(game->kept.size() + game->removed.size() <= 2);  // the centre is in one target at most
  CHECK(PlayEdgeGame(star, 1, 1).status().code() == StatusCode::kInvalidArgument);
  CHECK(PlayEdgeGame(CsrGraph::FromUndirectedEdges(3, {{0, 1}}), 10, 1).status().code() ==
        StatusCode::kInvalidArgument);
}
