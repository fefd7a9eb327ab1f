#include "audit/edge_game.h"

#include <algorithm>
#include <utility>

#include "ldpgraph/samplers.h"

namespace ldpgraph {

Result<EdgeGame> PlayEdgeGame(const CsrGraph& graph, std::uint32_t targets, std::uint64_t seed) {
  if (targets < 2) return Status::InvalidArgument("the game needs at least 2 target edges");
  const std::uint32_t n = graph.num_nodes();
  std::vector<UserPair> edges;
  for (std::uint32_t u = 0; u < n; ++u) {
    for (std::uint32_t v : graph.neighbours(u)) {
      if (u < v) edges.emplace_back(u, v);
    }
  }
  if (edges.size() < 2) return Status::InvalidArgument("the graph has fewer than 2 edges to play with");
  SeededRandomSource rng(seed);
  for (std::size_t i = edges.size(); i > 1; --i) std::swap(edges[i - 1], edges[UniformBelow(rng, i)]);
  // A greedy matching over the shuffled edges.
  std::vector<bool> used(n, false);
  std::vector<bool> is_removed(edges.size(), false);
  EdgeGame game;
  for (std::size_t i = 0; i < edges.size() && game.kept.size() + game.removed.size() < targets; ++i) {
    const auto [u, v] = edges[i];
    if (used[u] || used[v]) continue;
    used[u] = used[v] = true;
    const bool keep = UniformBelow(rng, 2) == 0;
    (keep ? game.kept : game.removed).push_back(edges[i]);
    is_removed[i] = !keep;
  }
  std::vector<std::pair<std::uint32_t, std::uint32_t>> remaining;
  remaining.reserve(edges.size());
  for (std::size_t i = 0; i < edges.size(); ++i) {
    if (!is_removed[i]) remaining.push_back(edges[i]);
  }
  game.graph = CsrGraph::FromUndirectedEdges(n, remaining);
  return game;
}

}  // namespace ldpgraph
