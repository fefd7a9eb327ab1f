// Turning a dataset into what a model trains on: the CLI, the experiments
// and the daemon share it.
#ifndef LDPGRAPH_DAEMON_TRAIN_TASK_DATA_H_
#define LDPGRAPH_DAEMON_TRAIN_TASK_DATA_H_

#include <vector>

#include "dataset/graph_dataset.h"
#include "graph/graph_batch.h"
#include "engine/node_features.h"

namespace ldpgraph {

struct GraphTaskData {
  std::vector<PreparedGraph> graphs;
  std::vector<int> labels;  // one per graph
  int classes = 0;
};

struct NodeTaskData {
  PreparedGraph graph;
  NodeFeatures features;    // nodes x dims, sparse when few are non-zero
  std::vector<int> labels;  // one per node, -1 unknown
  int classes = 0;
};

// Errors: kInvalidArgument if the dataset lacks what the task needs.
// `degree_cap`: see GinConfig (0: constant inputs).
Result<GraphTaskData> MakeGraphTaskData(const GraphDataset& ds, int degree_cap = 0, bool size_input = false);
Result<NodeTaskData> MakeNodeTaskData(const GraphDataset& ds, Aggregation aggregation);
// The same with `features` (one row per node) in place of the dataset's:
// a borrowed view stays borrowed. Errors: also kInvalidArgument when the
// features' rows are not the graph's nodes.
Result<NodeTaskData> MakeNodeTaskData(const GraphDataset& ds, Aggregation aggregation, NodeFeatures features);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_TRAIN_TASK_DATA_H_
