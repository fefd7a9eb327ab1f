#include "train/node_pipeline.h"

namespace ldpgraph {

Result<NodeRun> TrainNodeModel(const NodeTaskData& data, const Split& split, const NodeRunOptions& options) {
  NodeGnnConfig config;
  config.kind = options.kind;
  config.input_dim = static_cast<int>(data.features.cols());
  config.hidden = options.hidden;
  config.layers = options.layers;
  config.classes = data.classes;
  config.dropout = options.dropout;
  Result<NodeGnnModel> model = NodeGnnModel::Create(config, options.seed);
  if (!model.ok()) return model.status();
  NodeRun run;
  run.model = std::make_unique<NodeGnnModel>(std::move(model).value());
  NodeTrainOptions train = options.train;
  train.seed = options.seed;
  run.result = TrainNodeClassifier(run.model.get(), data.graph, data.features, data.labels, split, train,
                                   options.on_epoch);
  return run;
}

Split DefaultNodeSplit(const std::vector<int>& labels, std::uint64_t seed) {
  return StratifiedSplit(labels, 0.50, 0.25, seed);
}

}  // namespace ldpgraph
