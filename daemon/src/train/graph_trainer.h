// Training protocol for graph classification (DPRR paper, GIN-0): Adam,
// learning rate halved every lr_step epochs, batches of graphs, early
// stopping on the validation loss (allowed from epoch early_stop_from, after
// `patience` epochs without improvement), the best model restored and tested.
#ifndef LDPGRAPH_DAEMON_TRAIN_GRAPH_TRAINER_H_
#define LDPGRAPH_DAEMON_TRAIN_GRAPH_TRAINER_H_

#include <atomic>
#include <functional>
#include <vector>

#include "graph/graph_batch.h"
#include "models/graph_model.h"
#include "train/splits.h"

namespace ldpgraph {

class Adam;

// The largest learning rate any route of the daemon takes (GAP jobs,
// FedCog runs). Steps that large already throw the weights far from where
// any task has its optimum; past it, weights overflow to infinity within a
// few epochs (1e30: the first step), and a model of NaNs is not a model.
constexpr double kMaxLearningRate = 10;
// kInvalidArgument "lr must be in (0, 10]" for any other value (NaN included).
Status CheckLearningRate(double lr);
// Weight decay beyond 1 shrinks every weight to nothing within a step or
// two (issue 66: 1e19 trained to chance): [0, 1], or kInvalidArgument saying so.
constexpr double kMaxWeightDecay = 1;
Status CheckWeightDecay(double weight_decay);

struct GraphTrainOptions {
  int max_epochs = 500;
  int batch_size = 32;
  float lr = 0.01f;
  int lr_step = 50;
  float lr_decay = 0.5f;
  float weight_decay = 0.0f;
  int early_stop_from = 100;
  int patience = 30;
  bool early_stopping = true;
  int eval_batch = 64;
  std::uint64_t seed = 0;
  // Linear products with bfloat16 inputs where the CPU has AMX (Tape::UseBf16Products).
  bool bf16_products = false;
  // Set by another thread to stop after the current epoch (a cancelled
  // training job); the best model so far is still restored.
  const std::atomic<bool>* cancel = nullptr;
};

struct EpochReport {
  int epoch = 0;
  double train_loss = 0;
  double val_loss = 0;
  double val_accuracy = 0;
  double seconds = 0;
  float lr = 0;
};

struct Evaluation {
  double loss = 0;
  double accuracy = 0;
  double auc = 0;
  Matrix probs;  // one row per evaluated graph, in the order given
};

// What both trainers tell their progress callback after an epoch.
inline EpochReport MakeEpochReport(int epoch, double train_loss, const Evaluation& val, double seconds, float lr) {
  EpochReport r;
  r.epoch = epoch;
  r.train_loss = train_loss;
  r.val_loss = val.loss;
  r.val_accuracy = val.accuracy;
  r.seconds = seconds;
  r.lr = lr;
  return r;
}

struct GraphTrainResult {
  Evaluation val;
  Evaluation test;
  int best_epoch = 0;
  int epochs = 0;
  bool cancelled = false;
  double seconds = 0;
  std::vector<double> epoch_seconds;
};

// Class probabilities of graphs `ids` (eval mode) and their loss/accuracy/AUC.
// `bf16_products`: as GraphTrainOptions' (here and below).
Evaluation EvaluateGraphs(GraphModel* model, const std::vector<PreparedGraph>& graphs,
                          const std::vector<std::uint32_t>& labels, const std::vector<std::uint32_t>& ids,
                          int batch_size, bool bf16_products = false);

// One epoch: `order` shuffled with `rng`, then one Adam step per batch of
// `batch_size` graphs of it (dropout drawn from `rng` too). The mean batch
// loss. Shared by the trainer below and FedAvg's local epochs.
double TrainGraphEpoch(GraphModel* model, const std::vector<PreparedGraph>& graphs,
                       const std::vector<std::uint32_t>& labels, std::vector<std::uint32_t>* order, int batch_size,
                       Adam* adam, RandomSource& rng, bool bf16_products = false);

// Trains `model` on split.train; `on_epoch` (may be empty) sees every epoch.
GraphTrainResult TrainGraphClassifier(GraphModel* model, const std::vector<PreparedGraph>& graphs,
                                      const std::vector<std::uint32_t>& labels, const Split& split,
                                      const GraphTrainOptions& options,
                                      const std::function<void(const EpochReport&)>& on_epoch);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_TRAIN_GRAPH_TRAINER_H_
