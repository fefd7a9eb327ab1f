// DP-SGD's parts against their definitions: the per-row gradient norms the
// tape finds equal the norms of per-example gradients formed one by one,
// the clipped sum is the sum of those gradients each clipped, one example
// moves it by at most the clipping norm, and models whose rows mix or bad
// options are refused before anything trains.
#include "train/dp_sgd.h"

#include <doctest/doctest.h>

#include <cmath>

#include "models/mlp.h"

using namespace ldpgraph;

namespace {

// A sparse and a dense copy of the same 8 x 5 features, some rows empty.
SparseMatrix SmallSparse() {
  SparseMatrix x;
  x.rows = 8;
  x.cols = 5;
  const std::vector<std::vector<std::pair<int, float>>> rows = {
      {{0, 1.0f}, {3, 2.0f}}, {{1, 0.5f}}, {}, {{0, -1.0f}, {1, 1.0f}, {4, 3.0f}},
      {{2, 4.0f}}, {{3, -2.0f}, {4, 0.25f}}, {{0, 1.5f}}, {{1, 2.0f}, {2, -1.0f}}};
  for (const auto& row : rows) {
    for (auto [c, v] : row) {
      x.indices.push_back(c);
      x.values.push_back(v);
    }
    x.offsets.push_back(x.nnz());
  }
  return x;
}

struct Fixture {
  NodeFeatures features;
  Mlp mlp;
  std::vector<int> labels = {0, 1, 2, 0, 1, 2, 0, 1};
  RowModel model;

  explicit Fixture(bool sparse) {
    const SparseMatrix x = SmallSparse();
    features = sparse ? NodeFeatures::Sparse(x) : NodeFeatures::Dense(ToDense(x));
    SeededRandomSource init(7);
    mlp = *Mlp::Create({5, 4, 2, 3, 0.3f, false}, "mlp", init);
    model.parameters = mlp.Parameters();
    model.forward = [this](Tape& t, const std::vector<std::uint32_t>& rows) {
      return mlp.Forward(t, *t.Own(features.Rows(rows)));
    };
  }

  // Example `which` of `batch` alone: its gradient, flattened, with the
  // dropout masks the whole batch gets from `seed`.
  Eigen::VectorXd ExampleGradient(const std::vector<std::uint32_t>& batch, std::size_t which, std::uint64_t seed) {
    std::vector<float> weights(batch.size(), 0.0f);
    weights[which] = 1.0f;
    std::vector<int> batch_labels;
    for (std::uint32_t r : batch) batch_labels.push_back(labels[r]);
    for (Parameter* p : model.parameters) p->ZeroGrad();
    SeededRandomSource masks(seed);
    Tape tape(true, &masks);
    tape.Backward(tape.WeightedCrossEntropySum(model.forward(tape, batch), &batch_labels, &weights));
    return Flat();
  }

  Eigen::VectorXd Flat() const {
    std::vector<double> all;
    for (const Parameter* p : model.parameters) {
      for (Eigen::Index i = 0; i < p->grad.size(); ++i) all.push_back(p->grad.data()[i]);
    }
    return Eigen::Map<Eigen::VectorXd>(all.data(), static_cast<Eigen::Index>(all.size()));
  }
};

const std::vector<std::uint32_t> kBatch = {0, 1, 2, 3, 4, 5, 6, 7};

}  // namespace

TEST_CASE("DpSgd.RowNormsEqualPerExampleGradientNorms") {
  for (bool sparse : {true, false}) {
    Fixture f(sparse);
    std::vector<double> squared(kBatch.size(), 0.0);
    std::vector<int> batch_labels = f.labels;
    std::vector<float> ones(kBatch.size(), 1.0f);
    {
      SeededRandomSource masks(11);
      Tape tape(true, &masks);
      tape.TrackRowGradientNorms(&squared);
      tape.Backward(tape.WeightedCrossEntropySum(f.model.forward(tape, kBatch), &batch_labels, &ones));
      CHECK(tape.RowsSeparable());
    }
    for (std::size_t i = 0; i < kBatch.size(); ++i) {
      const double expected = f.ExampleGradient(kBatch, i, 11).norm();
      INFO((sparse ? "sparse" : "dense") << " row " << i);
      CHECK(std::sqrt(squared[i]) == doctest::Approx(expected).epsilon(1e-4));
    }
  }
}

TEST_CASE("DpSgd.ClippedSumIsTheSumOfEachExampleClipped") {
  for (bool sparse : {true, false}) {
    Fixture f(sparse);
    const double clip = 0.3;  // below most examples' norms
    Eigen::VectorXd expected = Eigen::VectorXd::Zero(f.ExampleGradient(kBatch, 0, 5).size());
    int clipped = 0;
    for (std::size_t i = 0; i < kBatch.size(); ++i) {
      Eigen::VectorXd g = f.ExampleGradient(kBatch, i, 5);
      if (g.norm() > clip) {
        g *= clip / g.norm();
        ++clipped;
      }
      expected += g;
    }
    CHECK(clipped >= 2);
    REQUIRE(ClippedGradientSum(f.model, f.labels, kBatch, clip, 5).ok());
    CHECK((f.Flat() - expected).norm() < 1e-5 * std::max(1.0, expected.norm()));
  }
}

TEST_CASE("DpSgd.OneExampleMovesTheClippedSumByAtMostTheClip") {
  Fixture f(true);
  // Without dropout (the two batches would draw different masks for the
  // rows they share), and with large weights: large gradients to clip.
  SeededRandomSource init(3);
  Mlp plain = *Mlp::Create({5, 4, 2, 3, 0.0f, false}, "plain", init);
  plain.Parameters()[0]->value *= 10.0f;
  RowModel model{plain.Parameters(), [&](Tape& t, const std::vector<std::uint32_t>& rows) {
                   return plain.Forward(t, *t.Own(f.features.Rows(rows)));
                 }};
  const std::vector<std::uint32_t> without = {0, 1, 2, 4, 5, 6, 7};  // example 3 removed
  auto moved = [&](double clip) {
    REQUIRE(ClippedGradientSum(model, f.labels, kBatch, clip, 1).ok());
    std::vector<Matrix> with_grads;
    for (Parameter* p : model.parameters) with_grads.push_back(p->grad);
    REQUIRE(ClippedGradientSum(model, f.labels, without, clip, 1).ok());
    double diff = 0;
    for (std::size_t k = 0; k < with_grads.size(); ++k) {
      diff += (with_grads[k] - model.parameters[k]->grad).squaredNorm();
    }
    return std::sqrt(diff);
  };
  const double unclipped = moved(1e9);
  CHECK(unclipped > 1.0);  // the example has a gradient worth clipping
  for (double clip : {0.1, 1.0}) {
    CHECK(moved(clip) <= clip * (1 + 1e-5));
    CHECK(moved(clip) == doctest::Approx(clip).epsilon(1e-3));  // clipped to the norm, not dropped
  }
}

TEST_CASE("DpSgd.RefusesModelsWhoseRowsMixAndBadOptions") {
  Fixture f(true);
  const std::vector<Matrix> before = {f.mlp.Parameters()[0]->value};
  // Scores for every node whatever the batch.
  RowModel whole{f.model.parameters, [&](Tape& t, const std::vector<std::uint32_t>&) {
                   return f.mlp.Forward(t, f.features);
                 }};
  DpSgdOptions whole_options;
  whole_options.steps = 3;
  SeededRandomSource whole_noise(1);
  CHECK(TrainDpSgd(whole, f.labels, kBatch, whole_options, whole_noise).code() == StatusCode::kInvalidArgument);
  // Rows mixed: batch row i reads the scores of batch row i + 1.
  RowModel mixing{f.model.parameters, [&](Tape& t, const std::vector<std::uint32_t>& rows) {
                    SparseMatrix next;
                    next.rows = next.cols = static_cast<std::int64_t>(rows.size());
                    for (std::size_t i = 0; i < rows.size(); ++i) {
                      next.indices.push_back(static_cast<std::int32_t>((i + 1) % rows.size()));
                      next.offsets.push_back(next.nnz());
                    }
                    const SparseMatrix* a = t.Own(std::move(next));
                    return t.Aggregate(a, t.Own(a->Transposed()), f.mlp.Forward(t, *t.Own(f.features.Rows(rows))));
                  }};
  DpSgdOptions o;
  o.steps = 3;
  SeededRandomSource noise(1);
  CHECK(TrainDpSgd(mixing, f.labels, kBatch, o, noise).code() == StatusCode::kInvalidArgument);
  // A parameter read twice.
  RowModel reused{f.model.parameters, [&](Tape& t, const std::vector<std::uint32_t>& rows) {
                    const NodeFeatures* x = t.Own(f.features.Rows(rows));
                    return t.Add(f.mlp.Forward(t, *x), f.mlp.Forward(t, *x));
                  }};
  CHECK(TrainDpSgd(reused, f.labels, kBatch, o, noise).code() == StatusCode::kInvalidArgument);
  // A parameter read by another operation first (its rows' norms escape).
  Parameter w("w", 5, 3);
  RowModel scaled{{&w}, [&](Tape& t, const std::vector<std::uint32_t>& rows) {
                    return t.Linear(t.Constant(f.features.Rows(rows).ToDense()), t.Scale(t.Param(&w), 2.0f),
                                    Tape::kNone);
                  }};
  CHECK(TrainDpSgd(scaled, f.labels, kBatch, o, noise).code() == StatusCode::kInvalidArgument);
  CHECK((f.mlp.Parameters()[0]->value - before[0]).norm() == 0);  // nothing trained

  for (double bad : {0.0, -1.0, std::nan(""), HUGE_VAL}) {
    DpSgdOptions b = o;
    b.noise_multiplier = bad;
    CHECK(TrainDpSgd(f.model, f.labels, kBatch, b, noise).code() == StatusCode::kInvalidArgument);
    b = o;
    b.clip_norm = bad;
    CHECK(TrainDpSgd(f.model, f.labels, kBatch, b, noise).code() == StatusCode::kInvalidArgument);
  }
  for (double bad : {0.0, 1.5, std::nan("")}) {
    DpSgdOptions b = o;
    b.sampling_rate = bad;
    CHECK(TrainDpSgd(f.model, f.labels, kBatch, b, noise).code() == StatusCode::kInvalidArgument);
  }
  DpSgdOptions b = o;
  b.steps = 0;
  CHECK(TrainDpSgd(f.model, f.labels, kBatch, b, noise).code() == StatusCode::kInvalidArgument);
  std::vector<int> unlabelled = f.labels;
  unlabelled[3] = -1;
  CHECK(TrainDpSgd(f.model, unlabelled, kBatch, o, noise).code() == StatusCode::kInvalidArgument);
  CHECK((f.mlp.Parameters()[0]->value - before[0]).norm() == 0);
}

TEST_CASE("DpSgd.StepsAndNoiseScale") {
  CHECK(DpSgdSteps(100, 0.25) == 400);
  CHECK(DpSgdSteps(100, 256.0 / 1354) == 529);
  CHECK(DpSgdSteps(1, 1.0) == 1);
  Fixture f(true);
  // 5*4 + 4 + 4*3 + 3 = 39 coordinates.
  CHECK(DpSgdNoiseStddev(f.model.parameters, 2.0, 0.5) ==
        doctest::Approx(2.0 * (0.5 + std::sqrt(39.0) / (1 << 20))));
}
