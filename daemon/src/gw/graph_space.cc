#include "gw/graph_space.h"

#include <algorithm>
#include <map>
#include <queue>

namespace ldpgraph {

Result<GwStructure> ParseGwStructure(const std::string& name) {
  if (name == "adjacency") return GwStructure::kAdjacency;
  if (name == "shortest-path") return GwStructure::kShortestPath;
  return Status::InvalidArgument("unknown structure '" + name + "' (adjacency or shortest-path)");
}

namespace {

Eigen::MatrixXd HopDistances(const CsrGraph& g) {
  const std::uint32_t n = g.num_nodes();
  Eigen::MatrixXd d = Eigen::MatrixXd::Constant(n, n, -1);
  double diameter = 0;
  for (std::uint32_t s = 0; s < n; ++s) {
    std::queue<std::uint32_t> q;
    d(s, s) = 0;
    q.push(s);
    while (!q.empty()) {
      const std::uint32_t u = q.front();
      q.pop();
      for (std::uint32_t v : g.neighbours(u)) {
        if (d(s, v) < 0) {
          d(s, v) = d(s, u) + 1;
          diameter = std::max(diameter, d(s, v));
          q.push(v);
        }
      }
    }
  }
  return (d.array() < 0).select(diameter + 1, d);
}

}  // namespace

std::vector<Eigen::MatrixXd> OneHotNodeTags(const GraphDataset& ds) {
  if (ds.node_tags.empty()) return {};
  // Distinct tags in sorted order.
  std::map<std::int64_t, int> tag_index;
  for (std::int64_t t : ds.node_tags) tag_index.emplace(t, 0);
  int k = 0;
  for (auto& [tag, index] : tag_index) index = k++;
  std::vector<Eigen::MatrixXd> out;
  std::size_t node = 0;
  for (const CsrGraph& graph : ds.graphs) {
    Eigen::MatrixXd x = Eigen::MatrixXd::Zero(graph.num_nodes(), k);
    for (std::uint32_t u = 0; u < graph.num_nodes(); ++u, ++node) x(u, tag_index[ds.node_tags[node]]) = 1;
    out.push_back(std::move(x));
  }
  return out;
}

Result<std::vector<GraphSpace>> GraphSpaces(const GraphDataset& ds, GwStructure structure) {
  std::vector<Eigen::MatrixXd> tags = OneHotNodeTags(ds);
  std::vector<GraphSpace> out;
  for (std::size_t g = 0; g < ds.graphs.size(); ++g) {
    const CsrGraph& graph = ds.graphs[g];
    const std::uint32_t n = graph.num_nodes();
    if (n == 0) return Status::InvalidArgument("graph " + std::to_string(g) + " has no nodes: GW needs at least one");
    GraphSpace s;
    if (structure == GwStructure::kShortestPath) {
      s.structure = HopDistances(graph);
    } else {
      s.structure = Eigen::MatrixXd::Zero(n, n);
      for (std::uint32_t u = 0; u < n; ++u) {
        for (std::uint32_t v : graph.neighbours(u)) s.structure(u, v) = s.structure(v, u) = 1;
      }
    }
    if (!tags.empty()) s.features = std::move(tags[g]);
    out.push_back(std::move(s));
  }
  return out;
}

GraphSpace EmbeddingSpace(const Eigen::MatrixXd& h) {
  GraphSpace s;
  const Eigen::VectorXd norms = h.rowwise().squaredNorm();
  Eigen::MatrixXd sq = (-2.0 * h * h.transpose()).colwise() + norms;
  sq.rowwise() += norms.transpose();
  s.structure = sq.cwiseMax(0.0).cwiseSqrt();
  s.structure.diagonal().setZero();
  s.features = h;
  return s;
}

Eigen::MatrixXd FeatureCost(const Eigen::MatrixXd& x, const Eigen::MatrixXd& y) {
  Eigen::MatrixXd m = (-2.0 * x * y.transpose()).colwise() + x.rowwise().squaredNorm();
  m.rowwise() += y.rowwise().squaredNorm().transpose();
  return m.cwiseMax(0.0);
}

}  // namespace ldpgraph
