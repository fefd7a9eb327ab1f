#include "prediction/dataset_prediction.h"

#include <string>
#include <vector>

#include "gap/gap_model.h"
#include "train/graph_trainer.h"
#include "train/node_trainer.h"
#include "train/task_data.h"

namespace ldpgraph {
namespace {

Result<DatasetPrediction> PredictGraphs(GinModel* gin, const GraphDataset& ds) {
  Result<GraphTaskData> data = MakeGraphTaskData(ds, gin->config().degree_cap, gin->config().size_input);
  if (!data.ok()) return data.status();
  std::vector<std::uint32_t> ids(data->graphs.size());
  for (std::uint32_t i = 0; i < ids.size(); ++i) ids[i] = i;
  const bool labelled = static_cast<int>(ds.num_classes) == gin->config().classes;
  Evaluation e = EvaluateGraphs(gin, data->graphs, labelled ? ds.labels : std::vector<std::uint32_t>{}, ids, 64);
  DatasetPrediction out;
  out.probabilities = std::move(e.probs);
  if (labelled) out.accuracy = e.accuracy;
  return out;
}

// What a model stored for the graph it was trained on (GAP, or a node model
// trained on a denoised graph).
Result<DatasetPrediction> PredictStored(const Matrix& stored, const char* kind, const GraphDataset& ds) {
  if (ds.graphs.size() != 1 || static_cast<Eigen::Index>(ds.graphs[0].num_nodes()) != stored.rows()) {
    return Status::InvalidArgument(std::string("this ") + kind + " model was trained on a graph of " +
                                   std::to_string(stored.rows()) +
                                   " nodes and predicts for that graph only; the dataset is not it");
  }
  DatasetPrediction out;
  out.probabilities = stored;
  std::vector<std::uint32_t> labelled;
  std::vector<int> labels(ds.node_labels.begin(), ds.node_labels.end());
  for (std::uint32_t i = 0; i < labels.size(); ++i) {
    if (labels[i] >= 0) labelled.push_back(i);
  }
  if (!labelled.empty() && labels.size() == static_cast<std::size_t>(out.probabilities.rows())) {
    out.accuracy = Accuracy(out.probabilities, labels, labelled);
  }
  return out;
}

Result<DatasetPrediction> PredictNodes(NodeGnnModel* node, const GraphDataset& ds, const NodeFeatures* features) {
  const Aggregation aggregation = AggregationFor(node->config().kind);
  Result<NodeTaskData> data =
      features != nullptr ? MakeNodeTaskData(ds, aggregation, *features) : MakeNodeTaskData(ds, aggregation);
  if (!data.ok()) return data.status();
  if (data->features.cols() != node->config().input_dim) {
    return Status::InvalidArgument("the model expects " + std::to_string(node->config().input_dim) +
                                   " features, the dataset has " + std::to_string(data->features.cols()));
  }
  std::vector<std::uint32_t> labelled;
  for (std::uint32_t i = 0; i < data->labels.size(); ++i) {
    if (data->labels[i] >= 0) labelled.push_back(i);
  }
  Evaluation e = EvaluateNodes(node, data->graph, data->features, data->labels, labelled);
  DatasetPrediction out;
  out.probabilities = std::move(e.probs);
  if (!labelled.empty()) out.accuracy = e.accuracy;
  return out;
}

}  // namespace

Result<DatasetPrediction> PredictDataset(const AnyModel& model, const GraphDataset& dataset,
                                         const NodeFeatures* features) {
  switch (model.kind) {
    case ModelKind::kGin:
      return PredictGraphs(model.gin.get(), dataset);
    case ModelKind::kGap:
      return PredictStored(model.gap->node_probabilities, "GAP", dataset);
    case ModelKind::kGcn:
    case ModelKind::kSage:
      if (model.node_probabilities.size() > 0) {
        return PredictStored(model.node_probabilities, "denoised-graph", dataset);
      }
      return PredictNodes(model.node.get(), dataset, features);
  }
  return Status::InvalidArgument("unknown model kind");
}

}  // namespace ldpgraph
