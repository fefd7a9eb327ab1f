#include "audit/link_stealing.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "ldpgraph/samplers.h"
#include "train/splits.h"

namespace ldpgraph {

double RowCorrelation(const Matrix& probabilities, std::uint32_t u, std::uint32_t v) {
  const Eigen::Index c = probabilities.cols();
  double mean_u = 0, mean_v = 0;
  for (Eigen::Index k = 0; k < c; ++k) {
    mean_u += probabilities(u, k);
    mean_v += probabilities(v, k);
  }
  mean_u /= static_cast<double>(c);
  mean_v /= static_cast<double>(c);
  double uv = 0, uu = 0, vv = 0;
  for (Eigen::Index k = 0; k < c; ++k) {
    const double a = probabilities(u, k) - mean_u, b = probabilities(v, k) - mean_v;
    uv += a * b;
    uu += a * a;
    vv += b * b;
  }
  return uu > 0 && vv > 0 ? uv / std::sqrt(uu * vv) : 0.0;
}

namespace {

bool Adjacent(const CsrGraph& graph, std::uint32_t u, std::uint32_t v) {
  const Span<const std::uint32_t> row = graph.neighbours(u);
  return std::binary_search(row.begin(), row.end(), v);
}

}  // namespace

Result<LinkAttackResult> LinkStealingAuc(const Matrix& probabilities, const CsrGraph& graph,
                                         std::uint64_t max_edges, std::uint64_t seed) {
  const std::uint32_t n = graph.num_nodes();
  if (probabilities.rows() != static_cast<Eigen::Index>(n)) {
    return Status::InvalidArgument("the model gives " + std::to_string(probabilities.rows()) +
                                   " rows of probabilities; the graph has " + std::to_string(n) + " users");
  }
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
  for (std::uint32_t u = 0; u < n; ++u) {
    for (std::uint32_t v : graph.neighbours(u)) {
      if (u < v) edges.emplace_back(u, v);
    }
  }
  if (edges.empty()) return Status::InvalidArgument("the graph has no edge to steal");
  const double pairs = static_cast<double>(n) * (n - 1) / 2.0;
  if (static_cast<double>(edges.size()) >= pairs) return Status::InvalidArgument("the graph is complete: no non-edge");
  SeededRandomSource rng(seed);
  if (edges.size() > max_edges) {  // a uniform sample: the first max_edges of a partial shuffle
    for (std::size_t i = 0; i < max_edges; ++i) {
      std::swap(edges[i], edges[i + UniformBelow(rng, edges.size() - i)]);
    }
    edges.resize(max_edges);
  }
  std::vector<std::pair<float, bool>> scored;
  scored.reserve(2 * edges.size());
  for (const auto& [u, v] : edges) scored.emplace_back(static_cast<float>(RowCorrelation(probabilities, u, v)), true);
  LinkAttackResult result;
  result.edges = edges.size();
  while (result.non_edges < result.edges) {
    const auto u = static_cast<std::uint32_t>(UniformBelow(rng, n));
    const auto v = static_cast<std::uint32_t>(UniformBelow(rng, n));
    if (u == v || Adjacent(graph, u, v)) continue;
    scored.emplace_back(static_cast<float>(RowCorrelation(probabilities, u, v)), false);
    ++result.non_edges;
  }
  result.auc = BinaryAuc(std::move(scored));
  return result;
}

}  // namespace ldpgraph
