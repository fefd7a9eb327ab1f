#include "train/task_data.h"

#include <algorithm>
#include <map>
#include <string>

namespace ldpgraph {

Result<GraphTaskData> MakeGraphTaskData(const GraphDataset& ds, int degree_cap, bool size_input) {
  if (ds.format == DatasetFormat::kCsv) {
    return Status::InvalidArgument("gin classifies graphs: give an s2v file or a TU folder, not a CSV node dataset");
  }
  if (ds.num_classes < 2) {
    return Status::InvalidArgument("the dataset has " + std::to_string(ds.num_classes) +
                                   " graph label(s); classification needs at least 2 classes");
  }
  GraphTaskData d;
  d.graphs.reserve(ds.graphs.size());
  for (const CsrGraph& g : ds.graphs) d.graphs.push_back(PrepareGraph(g, Aggregation::kSumWithSelf, degree_cap, size_input));
  d.labels.assign(ds.labels.begin(), ds.labels.end());
  d.classes = static_cast<int>(std::max(2u, ds.num_classes));
  return d;
}

namespace {

// The task's graph and labels, and the dataset's features unless `with_features` is false.
Result<NodeTaskData> NodeTask(const GraphDataset& ds, Aggregation aggregation, bool with_features) {
  if (ds.format != DatasetFormat::kCsv || ds.graphs.size() != 1) {
    return Status::InvalidArgument("gcn and sage classify nodes: give a CSV folder (edges.csv, features.csv, labels.csv)");
  }
  if (ds.node_labels.empty()) return Status::InvalidArgument("the dataset has no labels.csv");
  NodeTaskData d;
  const CsrGraph& g = ds.graphs[0];
  d.graph = PrepareGraph(g, aggregation);
  if (!with_features) {
    // the caller's features replace them
  } else if (ds.feature_dims == 0) {
    d.features = NodeFeatures::Dense(Matrix::Ones(g.num_nodes(), 1));  // no features.csv: a constant input
  } else {
    d.features = NodeFeatures::Choose(ds.node_features);
  }
  // Labels mapped to 0..C-1 in sorted order of their raw values.
  std::map<std::int64_t, int> index;
  for (auto l : ds.node_labels) {
    if (l >= 0) index.emplace(l, 0);
  }
  int next = 0;
  for (auto& kv : index) kv.second = next++;
  d.labels.resize(ds.node_labels.size());
  for (std::size_t i = 0; i < ds.node_labels.size(); ++i) {
    d.labels[i] = ds.node_labels[i] >= 0 ? index[ds.node_labels[i]] : -1;
  }
  if (next < 2) {
    return Status::InvalidArgument("labels.csv has " + std::to_string(next) +
                                   " class(es); classification needs at least 2");
  }
  d.classes = next;
  return d;
}

}  // namespace

Result<NodeTaskData> MakeNodeTaskData(const GraphDataset& ds, Aggregation aggregation, NodeFeatures features) {
  if (ds.graphs.size() == 1 && features.rows() != static_cast<Eigen::Index>(ds.graphs[0].num_nodes())) {
    return Status::InvalidArgument("the features have " + std::to_string(features.rows()) + " rows; the graph has " +
                                   std::to_string(ds.graphs[0].num_nodes()) + " nodes");
  }
  Result<NodeTaskData> d = NodeTask(ds, aggregation, /*with_features=*/false);
  if (d.ok()) d->features = std::move(features);
  return d;
}

Result<NodeTaskData> MakeNodeTaskData(const GraphDataset& ds, Aggregation aggregation) {
  return NodeTask(ds, aggregation, /*with_features=*/true);
}

}  // namespace ldpgraph
