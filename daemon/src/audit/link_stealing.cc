#include "audit/link_stealing.h"

#include <cmath>

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

Result<LinkAttackResult> LinkStealingAuc(const Matrix& probabilities, const CsrGraph& graph,
                                         std::uint64_t max_edges, std::uint64_t seed) {
  const std::uint32_t n = graph.num_nodes();
  if (probabilities.rows() != static_cast<Eigen::Index>(n)) {
    return Status::InvalidArgument("the model gives " + std::to_string(probabilities.rows()) +
                                   " rows of probabilities; the graph has " + std::to_string(n) + " users");
  }
  Result<LinkPairs> pairs = SampleLinkPairs(graph, max_edges, seed);
  if (!pairs.ok()) return pairs.status();
  return ScoreLinkPairs(*pairs, [&](std::uint32_t u, std::uint32_t v) { return RowCorrelation(probabilities, u, v); });
}

}  // namespace ldpgraph
