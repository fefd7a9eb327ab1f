#include "gap/held_graph_dataset.h"

#include <algorithm>

#include "train/task_data.h"

namespace ldpgraph {

Result<HeldGraphParts> HeldGraphFromDataset(const GraphDataset& ds) {
  Result<NodeTaskData> data = MakeNodeTaskData(ds, Aggregation::kMean);
  if (!data.ok()) return data.status();
  const CsrGraph& g = ds.graphs[0];
  HeldGraphParts p;
  p.num_nodes = g.num_nodes();
  p.classes = static_cast<std::uint64_t>(data->classes);
  p.feature_dims = std::max<std::uint32_t>(ds.feature_dims, 1);
  for (std::uint32_t u = 0; u < g.num_nodes(); ++u) {
    for (std::uint32_t v : g.neighbours(u)) {
      if (u < v) p.edges.emplace_back(u, v);
    }
  }
  const SparseMatrix& x = ds.node_features;
  for (std::int64_t r = 0; r < x.rows && ds.feature_dims > 0; ++r) {
    for (std::int64_t k = x.offsets[r]; k < x.offsets[r + 1]; ++k) {
      p.features.push_back({static_cast<std::uint64_t>(r), static_cast<std::uint64_t>(x.indices[k]),
                            x.unit_weights() ? 1.0 : static_cast<double>(x.values[k])});
    }
  }
  if (ds.feature_dims == 0) {  // no features: the constant input the trainers use
    for (std::uint32_t r = 0; r < g.num_nodes(); ++r) p.features.push_back({r, 0, 1.0});
  }
  for (int y : data->labels) p.labels.push_back(y);
  return p;
}

}  // namespace ldpgraph
