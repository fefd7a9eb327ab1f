// What a saved model predicts for every graph (GIN) or node (GCN,
// GraphSAGE, GAP) of a dataset: `ldpgraph predict` and the Python package's
// Model.predict share it, so both give the same probabilities. A GAP model
// holds its predictions for the graph it was trained on (computing them
// again would aggregate with new noise and spend more budget): the dataset
// must be that graph, and its labels only score them. So does a node model
// trained on a denoised graph (linkldp/), which holds every user's
// probabilities from that graph.
#ifndef LDPGRAPH_DAEMON_PREDICTION_DATASET_PREDICTION_H_
#define LDPGRAPH_DAEMON_PREDICTION_DATASET_PREDICTION_H_

#include "dataset/graph_dataset.h"
#include "engine/matrix.h"
#include "engine/node_features.h"
#include "ldpgraph/status.h"
#include "store/model_file.h"

namespace ldpgraph {

struct DatasetPrediction {
  Matrix probabilities;  // a row per graph or node, a column per class
  double accuracy = -1;  // against the dataset's labels; -1 when it has none the model's classes fit
};

// `features`: a node model's inputs in place of the dataset's (null: the
// dataset's). Errors: kInvalidArgument for a dataset of the wrong kind, a
// feature width the model was not trained on, or (GAP) another graph.
Result<DatasetPrediction> PredictDataset(const AnyModel& model, const GraphDataset& dataset,
                                         const NodeFeatures* features = nullptr);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_PREDICTION_DATASET_PREDICTION_H_
