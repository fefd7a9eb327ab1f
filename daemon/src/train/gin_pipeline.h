// The one way a GIN graph classifier is trained from a dataset: the CLI's
// train command, the experiments and the daemon's training jobs all call
// TrainGinOnDataset, so their numbers agree for the same data and seed.
#ifndef LDPGRAPH_DAEMON_TRAIN_GIN_PIPELINE_H_
#define LDPGRAPH_DAEMON_TRAIN_GIN_PIPELINE_H_

#include <functional>
#include <memory>

#include "dataset/graph_dataset.h"
#include "models/gin.h"
#include "train/graph_trainer.h"

namespace ldpgraph {

struct GinRunOptions {
  GinConfig model;  // classes, input_dim are filled from the dataset
  GraphTrainOptions train;
  // Seeds the stratified 75/10/15 split, the weights and dropout.
  std::uint64_t seed = 0;
  double train_fraction = 0.75, val_fraction = 0.10;
  bool colour_classes = true;  // GinModel::ShareColourClasses
  std::function<void(const EpochReport&)> on_epoch;
};

struct GinRun {
  Split split;
  GraphTrainResult result;
  std::unique_ptr<GinModel> model;  // the restored best model
};

// Trains on `dataset` (s2v or TU; labels per graph). The split depends only
// on the labels and the seed, so a noisy copy of a dataset (same labels) gets
// the same split as the original. Errors: kInvalidArgument for a dataset
// without two classes or a bad model configuration.
Result<GinRun> TrainGinOnDataset(const GraphDataset& dataset, const GinRunOptions& options);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_TRAIN_GIN_PIPELINE_H_
