#include "gap/aggregation.h"

#include <cmath>

#include "engine/sparse_matrix.h"
#include "ldpgraph/samplers.h"
#include "privacy/discrete_gaussian.h"

namespace ldpgraph {
namespace {

// A^T as a unit-weight sparse matrix: row v lists the nodes whose rows list v.
SparseMatrix TransposedAdjacency(const CsrGraph& graph) {
  const CsrGraph t = graph.Transposed();
  SparseMatrix a;
  a.rows = a.cols = t.num_nodes();
  a.offsets.assign(t.offsets().begin(), t.offsets().end());
  a.indices.assign(t.targets().begin(), t.targets().end());
  return a;
}

}  // namespace

void NormaliseRows(Matrix* x) {
  for (Eigen::Index r = 0; r < x->rows(); ++r) {
    const float norm = x->row(r).norm();
    if (norm > 0) x->row(r) /= norm;
  }
}

Result<std::vector<Matrix>> PrivateMultiHopAggregation(const CsrGraph& graph, Matrix x0, int hops, double noise_stddev,
                                                       RandomSource& rng) {
  if (x0.rows() != static_cast<Eigen::Index>(graph.num_nodes())) {
    return Status::InvalidArgument("the aggregation's inputs and graph disagree on the number of nodes");
  }
  if (hops < 1) return Status::InvalidArgument("GAP needs at least one hop (K >= 1)");
  if (!(noise_stddev >= 0) || !std::isfinite(noise_stddev)) {
    return Status::InvalidArgument("the aggregation noise must be finite and not negative");
  }
  const SparseMatrix a_t = TransposedAdjacency(graph);
  std::vector<Matrix> out;
  out.push_back(std::move(x0));
  for (int k = 1; k <= hops; ++k) {
    Matrix next;
    SpMM(a_t, out.back(), &next);
    if (noise_stddev > 0) LDPGRAPH_RETURN_IF_ERROR(AddDiscreteGaussianNoise(&next, noise_stddev, rng));
    NormaliseRows(&next);
    out.push_back(std::move(next));
  }
  return out;
}

bool IsSymmetric(const CsrGraph& graph) {
  const CsrGraph t = graph.Transposed();
  return t.offsets() == graph.offsets() && t.targets() == graph.targets();
}

CsrGraph BoundDegree(const CsrGraph& graph, std::uint32_t max_degree, RandomSource& rng) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
  for (std::uint32_t u = 0; u < graph.num_nodes(); ++u) {
    for (std::uint32_t v : graph.neighbours(u)) {
      if (u < v) edges.emplace_back(u, v);
    }
  }
  for (std::size_t i = edges.size(); i > 1; --i) std::swap(edges[i - 1], edges[UniformBelow(rng, i)]);  // Fisher-Yates
  std::vector<std::uint32_t> degree(graph.num_nodes(), 0);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> kept;
  for (auto [u, v] : edges) {
    if (degree[u] < max_degree && degree[v] < max_degree) {
      ++degree[u];
      ++degree[v];
      kept.emplace_back(u, v);
    }
  }
  return CsrGraph::FromUndirectedEdges(graph.num_nodes(), kept);
}

}  // namespace ldpgraph
