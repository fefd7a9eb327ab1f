#include "graph/graph_batch.h"

#include <algorithm>
#include <cmath>

namespace ldpgraph {
int NodeInputWidth(int degree_cap, bool size_input) { return (degree_cap > 0 ? degree_cap + 1 : 1) + (size_input ? 1 : 0); }

namespace {

// The aggregation matrix of `graph` with one weight per row entry (null:
// every entry weighs 1). A node's degree is the sum of its row's weights.
SparseMatrix AggregationMatrix(const CsrGraph& graph, const float* weights, Aggregation aggregation) {
  // Row u of A is u's report (A[u][v] = 1 if u listed v), and node u
  // aggregates the users in it, (A h)_u: with a constant input the sum is
  // her reported degree, the quantity DPRR preserves.
  const std::int64_t n = graph.num_nodes();
  const bool self = aggregation == Aggregation::kSumWithSelf || aggregation == Aggregation::kGcn;
  const bool unit = aggregation == Aggregation::kSumWithSelf && weights == nullptr;  // no weights stored
  const auto& offsets = graph.offsets();
  std::vector<float> degree(static_cast<std::size_t>(n));
  for (std::uint32_t v = 0; v < n; ++v) {
    if (weights == nullptr) {
      degree[v] = static_cast<float>(graph.degree(v));
    } else {
      double sum = 0;
      for (std::uint64_t e = offsets[v]; e < offsets[v + 1]; ++e) sum += weights[e];
      degree[v] = static_cast<float>(sum);
    }
  }
  SparseMatrix a;
  a.rows = a.cols = n;
  a.offsets.assign(1, 0);
  std::vector<float> inv_sqrt_deg;
  if (aggregation == Aggregation::kGcn || aggregation == Aggregation::kSymNoSelf) {
    const float extra = aggregation == Aggregation::kGcn ? 1.0f : 0.0f;  // the self-loop
    inv_sqrt_deg.resize(static_cast<std::size_t>(n));
    for (std::uint32_t v = 0; v < n; ++v) {
      const float d = degree[v] + extra;
      inv_sqrt_deg[v] = d > 0 ? 1.0f / std::sqrt(d) : 0.0f;
    }
  }
  for (std::uint32_t v = 0; v < n; ++v) {
    bool self_done = !self;
    auto push = [&](std::uint32_t u, float weight) {
      float w = weight;
      if (aggregation == Aggregation::kMean) w = degree[v] > 0 ? weight / degree[v] : 0.0f;
      if (aggregation == Aggregation::kGcn || aggregation == Aggregation::kSymNoSelf) {
        w = weight * inv_sqrt_deg[v] * inv_sqrt_deg[u];
      }
      a.indices.push_back(static_cast<std::int32_t>(u));
      if (!unit) a.values.push_back(w);
    };
    for (std::uint64_t e = offsets[v]; e < offsets[v + 1]; ++e) {
      const std::uint32_t u = graph.targets()[e];
      if (!self_done && u > v) {
        push(v, 1.0f);
        self_done = true;
      }
      push(u, weights == nullptr ? 1.0f : weights[e]);
    }
    if (!self_done) push(v, 1.0f);
    a.offsets.push_back(a.nnz());
  }
  return a;
}

}  // namespace

PreparedGraph PrepareGraph(const CsrGraph& graph, Aggregation aggregation, int degree_cap, bool size_input) {
  return PrepareGraph(graph, nullptr, aggregation, degree_cap, size_input);
}

PreparedGraph PrepareGraph(const CsrGraph& graph, const std::vector<float>* weights, Aggregation aggregation,
                           int degree_cap, bool size_input) {
  const std::int64_t n = graph.num_nodes();
  SparseMatrix a = AggregationMatrix(graph, weights == nullptr ? nullptr : weights->data(), aggregation);
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
  if (aggregation == Aggregation::kSumWithSelf) p.colours = ComputeGraphColours(p.agg, p.inputs);
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
    b.colours.push_back(g.colours.get());
    b.offsets.push_back(offset + g.num_nodes());
    b.labels.push_back(labels.empty() ? -1 : static_cast<int>(labels[id]));
  }
  return b;
}

}  // namespace ldpgraph
