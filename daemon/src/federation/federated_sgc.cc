#include "federation/federated_sgc.h"

#include <string>

#include "engine/adam.h"
#include "engine/layers.h"
#include "engine/tall_gemm.h"
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

// A (rows x inner, addressed by its two strides) times B (inner x cols),
// cols padded with zeros to whole vector lanes so that the engine's tall
// product kernel takes it (Eigen's packing dominates products only a few
// classes wide).
Matrix NarrowProduct(const float* a, std::ptrdiff_t a_row_stride, std::ptrdiff_t a_inner_stride, Eigen::Index rows,
                     Eigen::Index inner, const Matrix& b) {
  constexpr Eigen::Index kLanes = 16;
  const Eigen::Index padded = (b.cols() + kLanes - 1) / kLanes * kLanes;
  Matrix b_padded = Matrix::Zero(inner, padded);
  b_padded.leftCols(b.cols()) = b;
  Matrix c(rows, padded);
  TallGemm({a, a_row_stride, a_inner_stride, b_padded.data(), padded, c.data(), padded}, rows, padded, inner, false);
  return c.leftCols(b.cols());
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

Result<PartyRound> PartyRoundAt(const Matrix& propagated, const PartyTask& task, const std::vector<Matrix>& weights,
                                bool gradient) {
  if (weights.size() != 2 || weights[0].rows() != propagated.cols() || weights[1].rows() != 1 ||
      weights[1].cols() != weights[0].cols() || weights[0].cols() < 2) {
    return Status::InvalidArgument("the weights do not fit " + std::to_string(propagated.cols()) + " features");
  }
  const int classes = static_cast<int>(weights[0].cols());
  if (task.labels.size() != static_cast<std::size_t>(propagated.rows())) {
    return Status::InvalidArgument("the labels do not match the features");
  }
  for (std::uint32_t r : task.train) {
    if (task.labels[r] < 0) return Status::InvalidArgument("training user " + std::to_string(r) + " has no label");
  }
  for (int y : task.labels) {
    if (y >= classes) return Status::InvalidArgument("a label is not below the weights' " + std::to_string(classes) + " classes");
  }
  PartyRound out;
  out.train = task.train.size();
  out.val = task.val.size();
  out.test = task.test.size();
  const Matrix scores = SgcScores(propagated, weights);
  out.val_right = Correct(scores, task.labels, task.val);
  out.test_right = Correct(scores, task.labels, task.test);
  if (gradient && !task.train.empty()) {
    // The mean cross-entropy over the training users, by hand (one product
    // each way, over their rows only): d loss / d scores = (softmax - onehot) / n.
    const auto n = static_cast<Eigen::Index>(task.train.size());
    Matrix x(n, propagated.cols()), d(n, classes);
    for (Eigen::Index i = 0; i < n; ++i) {
      const std::uint32_t r = task.train[static_cast<std::size_t>(i)];
      x.row(i) = propagated.row(r);
      auto row = d.row(i);
      row = scores.row(r);
      row.array() -= row.maxCoeff();
      row = row.array().exp().matrix();
      row /= row.sum();
      row(task.labels[r]) -= 1.0f;
    }
    d /= static_cast<float>(n);
    out.gradient.push_back(NarrowProduct(x.data(), 1, x.cols(), x.cols(), n, d));  // x^T d
    out.gradient.push_back(d.colwise().sum());
  }
  return out;
}

Matrix SgcScores(const Matrix& propagated, const std::vector<Matrix>& weights) {
  Matrix scores = NarrowProduct(propagated.data(), propagated.cols(), 1, propagated.rows(), propagated.cols(), weights[0]);
  scores.rowwise() += weights[1].row(0);
  return scores;
}

Result<FederatedSgcRun> DriveFederatedSgc(std::size_t parties, int width, int classes, const FederatedSgcOptions& o,
                                          const PartyRoundCall& call, const RoundProgress& progress) {
  if (classes < 2) return Status::InvalidArgument("at least 2 classes are needed");
  if (width < 1 || parties == 0) return Status::InvalidArgument("at least one party and one feature are needed");
  // The parameter server's model: SGC's one linear layer.
  SeededRandomSource rng(o.seed);
  LinearLayer layer("sgc", width, classes, rng);
  std::vector<Parameter*> params;
  layer.Collect(&params);
  Adam adam(params, AdamWith(o.lr, o.weight_decay));
  std::uint64_t param_floats = 0;
  for (Parameter* p : params) param_floats += static_cast<std::uint64_t>(p->value.size());
  auto weights = [&] {
    std::vector<Matrix> w;
    for (Parameter* p : params) w.push_back(p->value);
    return w;
  };

  FederatedSgcRun run;
  double best_val = -1;
  std::size_t best_test_right = 0, test = 0;
  for (int round = 1; round <= o.max_epochs + 1; ++round) {
    const bool last = round == o.max_epochs + 1;  // only counts the final weights
    const std::vector<Matrix> sent = weights();
    std::vector<Matrix> sum(params.size());
    for (std::size_t k = 0; k < params.size(); ++k) sum[k] = Matrix::Zero(sent[k].rows(), sent[k].cols());
    std::vector<PartyRound> answers;
    std::size_t train = 0, val = 0, val_right = 0, test_right = 0;
    test = 0;
    for (std::size_t p = 0; p < parties; ++p) {
      Result<PartyRound> a = call(p, sent, !last);
      if (!a.ok()) return a.status();
      if (!last && !a->gradient.empty() && a->gradient.size() != params.size()) {
        return Status::InvalidArgument("party " + std::to_string(p) + " answered a gradient of the wrong shape");
      }
      train += a->train;
      val += a->val;
      val_right += a->val_right;
      test += a->test;
      test_right += a->test_right;
      run.training_bytes += (last ? 1 : 2) * param_floats * sizeof(float);
      answers.push_back(std::move(a).value());
    }
    if (round > 1) {  // the counts are those of the previous round's step
      const double val_accuracy = val == 0 ? 0 : static_cast<double>(val_right) / static_cast<double>(val);
      if (val_accuracy > best_val) {
        best_val = val_accuracy;
        run.best_epoch = round - 1;
        run.weights = sent;
        best_test_right = test_right;
      }
      if (progress && !progress(round - 1, val_accuracy)) return Status::FailedPrecondition("the training was stopped");
    }
    if (last) break;
    if (train == 0) return Status::InvalidArgument("no party has a training user");
    // The server: each party's mean-loss gradient weighted by its share.
    for (std::size_t p = 0; p < parties; ++p) {
      if (answers[p].train == 0) continue;
      const float share = static_cast<float>(answers[p].train) / static_cast<float>(train);
      for (std::size_t k = 0; k < params.size(); ++k) {
        if (answers[p].gradient[k].rows() != sum[k].rows() || answers[p].gradient[k].cols() != sum[k].cols()) {
          return Status::InvalidArgument("party " + std::to_string(p) + " answered a gradient of the wrong shape");
        }
        sum[k] += share * answers[p].gradient[k];
      }
    }
    for (std::size_t k = 0; k < params.size(); ++k) params[k]->grad = sum[k];
    adam.Step();
  }
  run.val_accuracy = best_val;
  run.test_accuracy = test == 0 ? 0 : static_cast<double>(best_test_right) / static_cast<double>(test);
  return run;
}

Result<FederatedSgcRun> TrainFederatedSgc(const std::vector<Matrix>& propagated, const std::vector<PartyTask>& tasks,
                                          int classes, const FederatedSgcOptions& o) {
  if (propagated.empty() || propagated.size() != tasks.size()) {
    return Status::InvalidArgument("one propagated feature matrix and one task per party are needed");
  }
  if (classes < 2) return Status::InvalidArgument("at least 2 classes are needed");
  const Eigen::Index width = propagated[0].cols();
  for (std::size_t p = 0; p < tasks.size(); ++p) {
    if (propagated[p].cols() != width || tasks[p].labels.size() != static_cast<std::size_t>(propagated[p].rows())) {
      return Status::InvalidArgument("party " + std::to_string(p) + "'s features or labels do not match");
    }
  }
  return DriveFederatedSgc(tasks.size(), static_cast<int>(width), classes, o,
                           [&](std::size_t p, const std::vector<Matrix>& weights, bool gradient) {
                             return PartyRoundAt(propagated[p], tasks[p], weights, gradient);
                           });
}

}  // namespace ldpgraph
