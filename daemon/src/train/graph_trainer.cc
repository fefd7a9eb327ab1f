#include "train/graph_trainer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>

#include "engine/adam.h"
#include "engine/allocator.h"
#include "ldpgraph/samplers.h"
#include "train/early_stopping.h"

namespace ldpgraph {

Status CheckLearningRate(double lr) {
  if (lr > 0 && lr <= kMaxLearningRate) return Status::Ok();
  return Status::InvalidArgument("lr must be in (0, " + std::to_string(static_cast<int>(kMaxLearningRate)) + "]");
}
Status CheckWeightDecay(double weight_decay) {
  if (weight_decay >= 0 && weight_decay <= kMaxWeightDecay) return Status::Ok();
  return Status::InvalidArgument("weight_decay must be in [0, " + std::to_string(static_cast<int>(kMaxWeightDecay)) +
                                 "]");
}

namespace {

using Clock = std::chrono::steady_clock;

}  // namespace

Evaluation EvaluateGraphs(GraphModel* model, const std::vector<PreparedGraph>& graphs,
                          const std::vector<std::uint32_t>& labels, const std::vector<std::uint32_t>& ids,
                          int batch_size, bool bf16_products) {
  Evaluation e;
  e.probs.resize(static_cast<Eigen::Index>(ids.size()), model->classes());
  std::vector<int> y(ids.size(), -1);
  double loss_sum = 0;
  for (std::size_t start = 0; start < ids.size(); start += static_cast<std::size_t>(batch_size)) {
    const std::vector<std::uint32_t> chunk(ids.begin() + static_cast<std::ptrdiff_t>(start),
                                           ids.begin() + static_cast<std::ptrdiff_t>(std::min(ids.size(), start + batch_size)));
    GraphBatch batch = MakeBatch(graphs, chunk, labels);
    Tape tape(false, nullptr);
    tape.UseBf16Products(bf16_products);
    Tape::Var logits = model->Forward(tape, batch, tape.Constant(batch.inputs));
    e.probs.middleRows(static_cast<Eigen::Index>(start), static_cast<Eigen::Index>(chunk.size())) =
        Softmax(tape.value(logits));
    if (!labels.empty()) {
      const double batch_loss = tape.value(tape.SoftmaxCrossEntropy(logits, &batch.labels))(0, 0);
      loss_sum += batch_loss * static_cast<double>(chunk.size());
      for (std::size_t i = 0; i < chunk.size(); ++i) y[start + i] = static_cast<int>(labels[chunk[i]]);
    }
  }
  if (!labels.empty() && !ids.empty()) {
    std::vector<std::uint32_t> rows(ids.size());
    for (std::uint32_t i = 0; i < rows.size(); ++i) rows[i] = i;
    e.loss = loss_sum / static_cast<double>(ids.size());
    e.accuracy = Accuracy(e.probs, y, rows);
    e.auc = RocAuc(e.probs, y, rows);
  }
  return e;
}

double TrainGraphEpoch(GraphModel* model, const std::vector<PreparedGraph>& graphs,
                       const std::vector<std::uint32_t>& labels, std::vector<std::uint32_t>* order, int batch_size,
                       Adam* adam, RandomSource& rng, bool bf16_products) {
  std::vector<std::uint32_t>& o = *order;
  for (std::size_t i = o.size(); i > 1; --i) std::swap(o[i - 1], o[UniformBelow(rng, i)]);
  double loss_sum = 0;
  std::size_t batches = 0;
  for (std::size_t b = 0; b < o.size(); b += static_cast<std::size_t>(batch_size)) {
    const std::vector<std::uint32_t> ids(o.begin() + static_cast<std::ptrdiff_t>(b),
                                         o.begin() + static_cast<std::ptrdiff_t>(std::min(o.size(), b + batch_size)));
    GraphBatch batch = MakeBatch(graphs, ids, labels);
    Tape tape(true, &rng);
    tape.UseBf16Products(bf16_products);
    Tape::Var loss = tape.SoftmaxCrossEntropy(model->Forward(tape, batch, tape.Constant(batch.inputs)), &batch.labels);
    adam->ZeroGrad();
    tape.Backward(loss);
    adam->Step();
    loss_sum += tape.value(loss)(0, 0);
    ++batches;
  }
  return batches ? loss_sum / static_cast<double>(batches) : 0.0;
}

GraphTrainResult TrainGraphClassifier(GraphModel* model, const std::vector<PreparedGraph>& graphs,
                                      const std::vector<std::uint32_t>& labels, const Split& split,
                                      const GraphTrainOptions& o,
                                      const std::function<void(const EpochReport&)>& on_epoch) {
  const auto start = Clock::now();
  TrainingMemoryScope memory;
  Adam adam(model->Parameters(), AdamWith(o.lr, o.weight_decay));
  SeededRandomSource rng(o.seed ^ 0x5eedULL);
  std::vector<std::uint32_t> order = split.train;

  GraphTrainResult result;
  EarlyStopping<GraphModel> stopping(model, o.early_stop_from, o.patience, o.early_stopping);
  for (int epoch = 1; epoch <= o.max_epochs; ++epoch) {
    const auto epoch_start = Clock::now();
    adam.set_lr(o.lr * std::pow(o.lr_decay, static_cast<float>((epoch - 1) / o.lr_step)));
    const double train_loss = TrainGraphEpoch(model, graphs, labels, &order, o.batch_size, &adam, rng, o.bf16_products);
    const double train_seconds = std::chrono::duration<double>(Clock::now() - epoch_start).count();
    result.epoch_seconds.push_back(train_seconds);
    memory.EpochEnded();
    Evaluation val = EvaluateGraphs(model, graphs, labels, split.val, o.eval_batch, o.bf16_products);
    result.epochs = epoch;
    const bool stop = stopping.Update(epoch, val.loss);
    if (on_epoch) on_epoch(MakeEpochReport(epoch, train_loss, val, train_seconds, adam.lr()));
    if (stop) break;
    if (o.cancel != nullptr && o.cancel->load()) {
      result.cancelled = true;
      break;
    }
  }
  stopping.RestoreBest();
  result.best_epoch = stopping.best_epoch();
  result.val = EvaluateGraphs(model, graphs, labels, split.val, o.eval_batch, o.bf16_products);
  result.test = EvaluateGraphs(model, graphs, labels, split.test, o.eval_batch, o.bf16_products);
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return result;
}

}  // namespace ldpgraph
