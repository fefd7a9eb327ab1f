#include "audit/link_pairs.h"

#include <algorithm>

#include "ldpgraph/samplers.h"
#include "train/splits.h"

namespace ldpgraph {

bool Adjacent(const CsrGraph& graph, std::uint32_t u, std::uint32_t v) {
  const Span<const std::uint32_t> row = graph.neighbours(u);
  return std::binary_search(row.begin(), row.end(), v);
}

Result<LinkPairs> SampleLinkPairs(const CsrGraph& graph, std::uint64_t max_edges, std::uint64_t seed,
                                  NonEdgeDraw draw) {
  const std::uint32_t n = graph.num_nodes();
  LinkPairs out;
  for (std::uint32_t u = 0; u < n; ++u) {
    for (std::uint32_t v : graph.neighbours(u)) {
      if (u < v) out.edges.emplace_back(u, v);
    }
  }
  if (out.edges.empty()) return Status::InvalidArgument("the graph has no edge to steal");
  const double pairs = static_cast<double>(n) * (n - 1) / 2.0;
  if (static_cast<double>(out.edges.size()) >= pairs) {
    return Status::InvalidArgument("the graph is complete: no non-edge");
  }
  SeededRandomSource rng(seed);
  if (out.edges.size() > max_edges) {  // a uniform sample: the first max_edges of a partial shuffle
    for (std::size_t i = 0; i < max_edges; ++i) {
      std::swap(out.edges[i], out.edges[i + UniformBelow(rng, out.edges.size() - i)]);
    }
    out.edges.resize(max_edges);
  }
  if (draw == NonEdgeDraw::kSameSource) {
    // Keep the edges whose first user has a non-friend to pair with.
    std::vector<UserPair> kept;
    for (const UserPair& e : out.edges) {
      if (graph.neighbours(e.first).size() + 1 < n) kept.push_back(e);
    }
    if (kept.empty()) return Status::InvalidArgument("every sampled user is a friend of everyone: no non-edge");
    out.edges = std::move(kept);
  }
  while (out.non_edges.size() < out.edges.size()) {
    const auto u = draw == NonEdgeDraw::kSameSource ? out.edges[out.non_edges.size()].first
                                                    : static_cast<std::uint32_t>(UniformBelow(rng, n));
    const auto v = static_cast<std::uint32_t>(UniformBelow(rng, n));
    if (u == v || Adjacent(graph, u, v)) continue;
    out.non_edges.emplace_back(u, v);
  }
  return out;
}

double ScoreAuc(const std::vector<double>& positive, const std::vector<double>& negative) {
  std::vector<std::pair<float, bool>> scored;
  scored.reserve(positive.size() + negative.size());
  for (double s : positive) scored.emplace_back(static_cast<float>(s), true);
  for (double s : negative) scored.emplace_back(static_cast<float>(s), false);
  return BinaryAuc(std::move(scored));
}

}  // namespace ldpgraph
