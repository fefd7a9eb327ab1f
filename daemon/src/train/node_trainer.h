// Training protocol for node classification (LPGNN): full-batch Adam with
// weight decay, early stopping on the validation loss (from epoch
// early_stop_from, patience epochs), best model restored. Optionally the
// loss goes through a label-transition matrix (forward correction for labels
// noised by randomized response).
#ifndef LDPGRAPH_DAEMON_TRAIN_NODE_TRAINER_H_
#define LDPGRAPH_DAEMON_TRAIN_NODE_TRAINER_H_

#include <functional>
#include <vector>

#include "models/node_gnn.h"
#include "train/graph_trainer.h"

namespace ldpgraph {

struct NodeTrainOptions {
  int max_epochs = 500;
  float lr = 0.01f;
  float weight_decay = 5e-4f;
  int early_stop_from = 100;
  int patience = 30;
  bool early_stopping = true;
  // Which epoch is kept and when patience runs out: the lowest validation
  // loss (false), or the highest validation accuracy with the loss breaking
  // ties (true), as LPGNN's own trainer does.
  bool select_on_accuracy = false;
  std::uint64_t seed = 0;
  const Matrix* transition = nullptr;  // forward correction; null for clean labels
  // LPGNN's Drop: the loss compares KProp_{label_steps}(softmax(z) T) over
  // `label_graph` with the targets (0: the plain or corrected softmax loss).
  int label_steps = 0;
  const PreparedGraph* label_graph = nullptr;
  // LPGNN's stopping rule for randomized-response labels: a model whose
  // accuracy against the noisy training labels exceeds what randomized
  // response lets a perfect model reach (Acc* = e^eps / (e^eps + c - 1)) is
  // fitting the noise; training stops before such an epoch counts. Null: off.
  const std::vector<int>* noisy_train_labels = nullptr;
  double noisy_accuracy_ceiling = 1.0;
  // The user each node stands for when the graph was renumbered
  // (graph/node_order.h; null: node i is user i): dropout draws each user's
  // masks whatever her number (Tape::SetRowIds). Must outlive the training.
  const std::vector<std::uint32_t>* row_ids = nullptr;
};

// The labels each part of training sees, one per node (-1 unknown). With
// noisy labels the server has only noisy ones for training and validation;
// the experiments test against the true labels.
struct NodeLabelSets {
  const std::vector<int>* train = nullptr;         // loss targets on split.train
  const std::vector<int>* val = nullptr;           // validation loss targets on split.val
  const std::vector<int>* val_accuracy = nullptr;  // what validation accuracy counts against
  const std::vector<int>* test = nullptr;          // test accuracy and AUC
};

struct NodeTrainResult {
  Evaluation val;
  Evaluation test;
  int best_epoch = 0;
  int epochs = 0;
  double seconds = 0;
};

// Class probabilities of every node (eval mode), and loss/accuracy/AUC over `rows`.
Evaluation EvaluateNodes(NodeGnnModel* model, const PreparedGraph& graph, const NodeFeatures& features,
                         const std::vector<int>& labels, const std::vector<std::uint32_t>& rows,
                         const Matrix* transition = nullptr);

// `labels`: one per node, -1 for unknown. Trains on split.train, selects on split.val.
NodeTrainResult TrainNodeClassifier(NodeGnnModel* model, const PreparedGraph& graph, const NodeFeatures& features,
                                    const std::vector<int>& labels, const Split& split,
                                    const NodeTrainOptions& options,
                                    const std::function<void(const EpochReport&)>& on_epoch);
// The same with a label set per part (see NodeLabelSets).
NodeTrainResult TrainNodeClassifier(NodeGnnModel* model, const PreparedGraph& graph, const NodeFeatures& features,
                                    const NodeLabelSets& labels, const Split& split,
                                    const NodeTrainOptions& options,
                                    const std::function<void(const EpochReport&)>& on_epoch);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_TRAIN_NODE_TRAINER_H_
