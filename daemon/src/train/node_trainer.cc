#include "train/node_trainer.h"

#include <chrono>

#include "engine/adam.h"
#include "engine/allocator.h"
#include "train/early_stopping.h"

namespace ldpgraph {
namespace {

using Clock = std::chrono::steady_clock;

// The training loss of `logits` against `targets` (rows with -1 ignored).
Tape::Var NodeLoss(Tape& tape, Tape::Var logits, const std::vector<int>* targets, const NodeTrainOptions& o) {
  if (o.label_steps == 0) return tape.SoftmaxCrossEntropy(logits, targets, o.transition);
  Tape::Var p = tape.SoftmaxRows(logits);
  if (o.transition != nullptr) p = tape.MatMulConstant(p, o.transition);
  for (int k = 0; k < o.label_steps; ++k) p = tape.Aggregate(&o.label_graph->agg, &o.label_graph->agg_t, p);
  return tape.ProbabilityNll(p, targets);
}

// Validation: the training loss on the validation rows, accuracy against
// the labels the server has for them; the AUC only when asked (nothing
// chooses an epoch by it, and its sort is a tenth of a small graph's epoch).
Evaluation EvaluateValidation(NodeGnnModel* model, const PreparedGraph& graph, const NodeFeatures& features,
                              const NodeLabelSets& labels, const std::vector<std::uint32_t>& rows,
                              const NodeTrainOptions& o, bool with_auc, PropagatedProductCache* cache) {
  Tape tape(false, nullptr);
  Tape::Var logits = model->Forward(tape, graph, features, nullptr, cache);
  const std::vector<int> masked = Masked(*labels.val, rows);
  Evaluation e;
  e.loss = tape.value(NodeLoss(tape, logits, &masked, o))(0, 0);
  e.probs = Softmax(tape.value(logits));
  e.accuracy = Accuracy(e.probs, *labels.val_accuracy, rows);
  if (with_auc) e.auc = RocAuc(e.probs, *labels.val_accuracy, rows);
  return e;
}

}  // namespace

Evaluation EvaluateNodes(NodeGnnModel* model, const PreparedGraph& graph, const NodeFeatures& features,
                         const std::vector<int>& labels, const std::vector<std::uint32_t>& rows,
                         const Matrix* transition) {
  Tape tape(false, nullptr);
  Tape::Var logits = model->Forward(tape, graph, features);
  const std::vector<int> masked = Masked(labels, rows);
  Evaluation e;
  e.loss = tape.value(tape.SoftmaxCrossEntropy(logits, &masked, transition))(0, 0);
  e.probs = Softmax(tape.value(logits));
  e.accuracy = Accuracy(e.probs, labels, rows);
  e.auc = RocAuc(e.probs, labels, rows);
  return e;
}

NodeTrainResult TrainNodeClassifier(NodeGnnModel* model, const PreparedGraph& graph, const NodeFeatures& features,
                                    const std::vector<int>& labels, const Split& split,
                                    const NodeTrainOptions& o,
                                    const std::function<void(const EpochReport&)>& on_epoch) {
  return TrainNodeClassifier(model, graph, features, NodeLabelSets{&labels, &labels, &labels, &labels}, split, o,
                             on_epoch);
}

NodeTrainResult TrainNodeClassifier(NodeGnnModel* model, const PreparedGraph& graph, const NodeFeatures& features,
                                    const NodeLabelSets& labels, const Split& split,
                                    const NodeTrainOptions& o,
                                    const std::function<void(const EpochReport&)>& on_epoch) {
  const auto start = Clock::now();
  TrainingMemoryScope memory;
  Adam adam(model->Parameters(), AdamWith(o.lr, o.weight_decay));
  SeededRandomSource rng(o.seed ^ 0x5eedULL);
  const std::vector<int> train_targets = Masked(*labels.train, split.train);

  // Each validation pass leaves its propagated products for the next
  // epoch's training pass, which reads the same weights.
  PropagatedProductCache propagated;
  NodeTrainResult result;
  EarlyStopping<NodeGnnModel> stopping(model, o.early_stop_from, o.patience, o.early_stopping);
  for (int epoch = 1; epoch <= o.max_epochs; ++epoch) {
    if (epoch > 1) memory.EpochEnded();  // the last epoch's tape is gone: its memory is free
    const auto epoch_start = Clock::now();
    Tape tape(true, &rng);
    tape.SetRowIds(o.row_ids);
    Tape::Var loss = NodeLoss(tape, model->Forward(tape, graph, features, nullptr, &propagated), &train_targets, o);
    adam.ZeroGrad();
    tape.Backward(loss);
    adam.Step();
    const double train_loss = tape.value(loss)(0, 0);
    const double seconds = std::chrono::duration<double>(Clock::now() - epoch_start).count();
    Evaluation val = EvaluateValidation(model, graph, features, labels, split.val, o, /*with_auc=*/false, &propagated);
    result.epochs = epoch;
    if (o.noisy_train_labels != nullptr &&
        Accuracy(val.probs, *o.noisy_train_labels, split.train) > o.noisy_accuracy_ceiling) {
      break;  // fitting the randomized labels themselves
    }
    const bool stop = o.select_on_accuracy ? stopping.Update(epoch, -val.accuracy, val.loss)
                                           : stopping.Update(epoch, val.loss);
    if (on_epoch) on_epoch(MakeEpochReport(epoch, train_loss, val, seconds, adam.lr()));
    if (stop) break;
  }
  stopping.RestoreBest();
  result.best_epoch = stopping.best_epoch();
  result.val = EvaluateValidation(model, graph, features, labels, split.val, o, /*with_auc=*/true, nullptr);
  result.test = EvaluateNodes(model, graph, features, *labels.test, split.test);
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return result;
}

}  // namespace ldpgraph
