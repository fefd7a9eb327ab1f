#include "federation/federated_sgc.h"

#include <string>

#include "engine/adam.h"
#include "engine/layers.h"
#include "engine/tape.h"
#include "federation/decoupled_gcn.h"
#include "ldpgraph/random_source.h"

namespace ldpgraph {
namespace {

// Correct predictions of `model` on `rows` of one party.
std::size_t Correct(const Matrix& logits, const std::vector<int>& labels, const std::vector<std::uint32_t>& rows) {
  std::size_t right = 0;
  for (std::uint32_t r : rows) {
    Eigen::Index best = 0;
    logits.row(r).maxCoeff(&best);
    right += labels[r] == static_cast<int>(best);
  }
  return right;
}

}  // namespace

Result<std::vector<Matrix>> DecoupledPropagate(const std::vector<PartyGraph>& parties,
                                               const std::vector<Matrix>& features, int steps,
                                               std::uint64_t* bytes_exchanged) {
  if (steps < 0) return Status::InvalidArgument("propagation steps must not be negative");
  if (features.size() != parties.size()) return Status::InvalidArgument("one feature matrix per party is needed");
  std::vector<Matrix> h = features;
  std::uint64_t bytes = 0;
  for (int k = 0; k < steps; ++k) {  // SGC: the layer without weights
    Result<std::vector<Matrix>> next = DecoupledRound(parties, h, &bytes);
    if (!next.ok()) return next.status();
    h = std::move(next).value();
  }
  if (bytes_exchanged != nullptr) *bytes_exchanged = bytes;
  return h;
}

Result<FederatedSgcRun> TrainFederatedSgc(const std::vector<Matrix>& propagated, const std::vector<PartyTask>& tasks,
                                          int classes, const FederatedSgcOptions& o) {
  if (propagated.empty() || propagated.size() != tasks.size()) {
    return Status::InvalidArgument("one propagated feature matrix and one task per party are needed");
  }
  if (classes < 2) return Status::InvalidArgument("at least 2 classes are needed");
  const Eigen::Index width = propagated[0].cols();
  std::size_t train = 0, val = 0, test = 0;
  for (std::size_t p = 0; p < tasks.size(); ++p) {
    if (propagated[p].cols() != width || tasks[p].labels.size() != static_cast<std::size_t>(propagated[p].rows())) {
      return Status::InvalidArgument("party " + std::to_string(p) + "'s features or labels do not match");
    }
    train += tasks[p].train.size();
    val += tasks[p].val.size();
    test += tasks[p].test.size();
  }
  if (train == 0) return Status::InvalidArgument("no party has a training user");

  // The parameter server's model: SGC's one linear layer.
  SeededRandomSource rng(o.seed);
  LinearLayer layer("sgc", static_cast<int>(width), classes, rng);
  std::vector<Parameter*> params;
  layer.Collect(&params);
  AdamOptions adam_options;
  adam_options.lr = o.lr;
  adam_options.weight_decay = o.weight_decay;
  Adam adam(params, adam_options);
  std::uint64_t param_floats = 0;
  for (Parameter* p : params) param_floats += static_cast<std::uint64_t>(p->value.size());

  FederatedSgcRun run;
  std::vector<Matrix> best_logits;
  double best_val = -1;
  std::vector<Matrix> sum(params.size());
  for (int epoch = 1; epoch <= o.max_epochs; ++epoch) {
    for (std::size_t k = 0; k < params.size(); ++k) sum[k] = Matrix::Zero(params[k]->value.rows(), params[k]->value.cols());
    for (std::size_t p = 0; p < tasks.size(); ++p) {
      if (tasks[p].train.empty()) continue;
      // The party: its own users' mean loss at the weights it was sent.
      std::vector<int> targets(tasks[p].labels.size(), -1);
      for (std::uint32_t r : tasks[p].train) targets[r] = tasks[p].labels[r];
      adam.ZeroGrad();
      Tape tape(true, nullptr);
      tape.Backward(tape.SoftmaxCrossEntropy(layer.Forward(tape, tape.ConstantView(&propagated[p])), &targets));
      // The server: weighted by the party's share of the training users.
      const float share = static_cast<float>(tasks[p].train.size()) / static_cast<float>(train);
      for (std::size_t k = 0; k < params.size(); ++k) sum[k] += share * params[k]->grad;
      run.training_bytes += 2 * param_floats * sizeof(float);
    }
    for (std::size_t k = 0; k < params.size(); ++k) params[k]->grad = sum[k];
    adam.Step();

    // Validation: each party counts its own, the server adds the counts.
    std::vector<Matrix> logits(tasks.size());
    std::size_t right = 0;
    for (std::size_t p = 0; p < tasks.size(); ++p) {
      Tape tape(false, nullptr);
      logits[p] = tape.value(layer.Forward(tape, tape.ConstantView(&propagated[p])));
      right += Correct(logits[p], tasks[p].labels, tasks[p].val);
    }
    const double val_accuracy = val == 0 ? 0 : static_cast<double>(right) / static_cast<double>(val);
    if (val_accuracy > best_val) {
      best_val = val_accuracy;
      run.best_epoch = epoch;
      best_logits = std::move(logits);
    }
  }
  std::size_t right = 0;
  for (std::size_t p = 0; p < tasks.size(); ++p) right += Correct(best_logits[p], tasks[p].labels, tasks[p].test);
  run.val_accuracy = best_val;
  run.test_accuracy = test == 0 ? 0 : static_cast<double>(right) / static_cast<double>(test);
  return run;
}

}  // namespace ldpgraph
