#include "graph/graph_batch.h"

#include <algorithm>
#include <cmath>

namespace ldpgraph {
int NodeInputWidth(int degree_cap, bool size_input) { return (degree_cap > 0 ? degree_cap + 1 : 1) + (size_input ? 1 : 0); }

PreparedGraph PrepareGraph(const CsrGraph& graph, Aggregation aggregation, int degree_cap, bool size_input) {
  // The report rows as a matrix R (R[u][v] = 1 if u listed v); aggregation uses R^T.
  const std::int64_t n = graph.num_nodes();
  SparseMatrix rows;
  rows.rows = rows.cols = n;
  rows.offsets.assign(graph.offsets().begin(), graph.offsets().end());
  rows.indices.assign(graph.targets().begin(), graph.targets().end());
  SparseMatrix in = rows.Transposed();  // row v: the users who listed v

  const bool self = aggregation == Aggregation::kSumWithSelf || aggregation == Aggregation::kGcn;
  const bool unit = aggregation == Aggregation::kSumWithSelf;  // no weights stored
  SparseMatrix a;
  a.rows = a.cols = n;
  a.offsets.assign(1, 0);
  std::vector<float> inv_sqrt_deg;
  if (aggregation == Aggregation::kGcn || aggregation == Aggregation::kSymNoSelf) {
    const float extra = aggregation == Aggregation::kGcn ? 1.0f : 0.0f;  // the self-loop
    inv_sqrt_deg.resize(static_cast<std::size_t>(n));
    for (std::int64_t v = 0; v < n; ++v) {
      const float d = static_cast<float>(in.offsets[v + 1] - in.offsets[v]) + extra;
      inv_sqrt_deg[v] = d > 0 ? 1.0f / std::sqrt(d) : 0.0f;
    }
  }
  for (std::int64_t v = 0; v < n; ++v) {
    const std::int64_t begin = in.offsets[v], end = in.offsets[v + 1];
    const auto deg = static_cast<float>(end - begin);
    bool self_done = !self;
    auto push = [&](std::int32_t u) {
      float w = 1.0f;
      if (aggregation == Aggregation::kMean) w = 1.0f / deg;
      if (aggregation == Aggregation::kGcn || aggregation == Aggregation::kSymNoSelf) {
        w = inv_sqrt_deg[v] * inv_sqrt_deg[u];
      }
      a.indices.push_back(u);
      if (!unit) a.values.push_back(w);
    };
    for (std::int64_t k = begin; k < end; ++k) {
      if (!self_done && in.indices[k] > v) {
        push(static_cast<std::int32_t>(v));
        self_done = true;
      }
      push(in.indices[k]);
    }
    if (!self_done) push(static_cast<std::int32_t>(v));
    a.offsets.push_back(a.nnz());
  }
  PreparedGraph p;
  p.agg_t = a.Transposed();
  p.agg = std::move(a);
  const Eigen::Index width = NodeInputWidth(degree_cap, size_input);
  if (degree_cap <= 0) {
    p.inputs = Matrix::Ones(n, width);
  } else {
    p.inputs = Matrix::Zero(n, width);
    for (std::int64_t v = 0; v < n; ++v) {
      p.inputs(v, std::min<std::int64_t>(graph.degree(static_cast<std::uint32_t>(v)), degree_cap)) = 1.0f;
    }
  }
  if (size_input) p.inputs.col(width - 1).setConstant(static_cast<float>(std::log(static_cast<double>(std::max<std::int64_t>(n, 1)))));
  return p;
}

GraphBatch MakeBatch(const std::vector<PreparedGraph>& graphs, const std::vector<std::uint32_t>& ids,
                     const std::vector<std::uint32_t>& labels) {
  GraphBatch b;
  std::int64_t nodes = 0;
  for (auto id : ids) nodes += graphs[id].num_nodes();
  const Eigen::Index width = ids.empty() ? 1 : graphs[ids[0]].inputs.cols();
  b.inputs.resize(nodes, width);
  for (auto id : ids) {
    const PreparedGraph& g = graphs[id];
    const std::int64_t offset = b.offsets.back();
    b.inputs.middleRows(offset, g.num_nodes()) = g.inputs;
    b.agg.Append(&g.agg);
    b.agg_t.Append(&g.agg_t);
    b.offsets.push_back(offset + g.num_nodes());
    b.labels.push_back(labels.empty() ? -1 : static_cast<int>(labels[id]));
  }
  return b;
}

}  // namespace ldpgraph
