// The one way a GCN or GraphSAGE node classifier is trained on a graph the
// server has as it is (no LPGNN feature or label mechanism): the CLI's
// `train --model gcn|sage` and the Python package both call TrainNodeModel,
// so their models are the same for the same data, split and seed.
#ifndef LDPGRAPH_DAEMON_TRAIN_NODE_PIPELINE_H_
#define LDPGRAPH_DAEMON_TRAIN_NODE_PIPELINE_H_

#include <cstdint>
#include <functional>
#include <memory>

#include "ldpgraph/status.h"
#include "models/node_gnn.h"
#include "train/graph_trainer.h"
#include "train/node_trainer.h"
#include "train/splits.h"
#include "train/task_data.h"

namespace ldpgraph {

struct NodeRunOptions {
  NodeGnnKind kind = NodeGnnKind::kGcn;
  int hidden = 16;
  int layers = 2;
  float dropout = 0.5f;
  NodeTrainOptions train;  // its seed is replaced by `seed`
  std::uint64_t seed = 0;  // the weights and dropout
  std::function<void(const EpochReport&)> on_epoch;
};

struct NodeRun {
  NodeTrainResult result;
  std::unique_ptr<NodeGnnModel> model;  // the restored best model
};

// Trains on `data` (prepared with AggregationFor(options.kind)) over `split`.
// Errors: kInvalidArgument for a bad model configuration.
Result<NodeRun> TrainNodeModel(const NodeTaskData& data, const Split& split, const NodeRunOptions& options);

// The split every node task of the CLI, the daemon and the Python package
// uses by default: stratified, 50% training, 25% validation, 25% test.
Split DefaultNodeSplit(const std::vector<int>& labels, std::uint64_t seed);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_TRAIN_NODE_PIPELINE_H_
