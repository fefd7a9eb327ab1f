// ProGAP's stage model: the frozen earlier embeddings shape its scores but
// learn nothing, a stage can start from the stage before's scores and
// encoder, and DP-SGD can clip its examples one by one.
#include "gap/progap_stage.h"

#include <doctest/doctest.h>

#include "ldpgraph/samplers.h"

using namespace ldpgraph;

namespace {

Matrix RandomMatrix(Eigen::Index rows, Eigen::Index cols, std::uint64_t seed) {
  SeededRandomSource rng(seed);
  Matrix m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = static_cast<float>(UniformUnit(rng) * 2 - 1);
  return m;
}

ProGapStageConfig Config(int earlier) {
  ProGapStageConfig c;
  c.input_dim = 6;
  c.hidden = 4;
  c.earlier_stages = earlier;
  c.classes = 3;
  c.dropout = 0;
  return c;
}

}  // namespace

TEST_CASE("ProGapStage.FrozenEmbeddingsShapeTheScoresButLearnNothing") {
  Result<ProGapStage> stage = ProGapStage::Create(Config(2), 1);
  REQUIRE(stage.ok());
  const Matrix x = RandomMatrix(5, 6, 2), h0 = RandomMatrix(5, 4, 3), h1 = RandomMatrix(5, 4, 4);
  Tape tape(true, nullptr);
  const Tape::Var earlier0 = tape.Constant(h0), earlier1 = tape.Constant(h1);
  const ProGapStage::Output out = stage->Forward(tape, tape.Constant(x), {earlier0, earlier1});
  CHECK(tape.value(out.embedding).cols() == 4);
  CHECK(tape.value(out.scores).cols() == 3);
  std::vector<int> labels = {0, 1, 2, 0, 1};
  for (Parameter* p : stage->Parameters()) p->ZeroGrad();
  tape.Backward(tape.SoftmaxCrossEntropy(out.scores, &labels));
  double grad = 0;
  for (Parameter* p : stage->Parameters()) grad += p->grad.norm();
  CHECK(grad > 0);

  // Another earlier embedding gives other scores from the same encoder output.
  Tape other(false, nullptr);
  const ProGapStage::Output moved =
      stage->Forward(other, other.Constant(x), {other.Constant(h0), other.Constant(RandomMatrix(5, 4, 5))});
  CHECK((other.value(moved.embedding) - tape.value(out.embedding)).norm() < 1e-6f);
  CHECK((other.value(moved.scores) - tape.value(out.scores)).norm() > 1e-3f);
}

TEST_CASE("ProGapStage.StartsFromTheStageBefore") {
  Result<ProGapStage> first = ProGapStage::Create(Config(1), 1), second = ProGapStage::Create(Config(2), 7);
  REQUIRE(first.ok());
  REQUIRE(second.ok());
  const Matrix x = RandomMatrix(5, 6, 2), h = RandomMatrix(5, 4, 3);
  auto run = [&](ProGapStage& stage, std::vector<Matrix> earlier) {
    Tape tape(false, nullptr);
    std::vector<Tape::Var> frozen;
    for (const Matrix& e : earlier) frozen.push_back(tape.Constant(e));
    const ProGapStage::Output out = stage.Forward(tape, tape.Constant(x), frozen);
    return std::make_pair(tape.value(out.embedding), tape.value(out.scores));
  };
  CHECK((run(*first, {h}).first - run(*second, {h, h}).first).norm() > 1e-3f);
  REQUIRE(second->CopyEncoder(*first).ok());
  CHECK((run(*first, {h}).first - run(*second, {h, h}).first).norm() == 0);
  second->StartAtZero();
  CHECK(run(*second, {h, h}).second.norm() == 0);

  ProGapStageConfig wide = Config(1);
  wide.input_dim = 7;
  Result<ProGapStage> other = ProGapStage::Create(wide, 1);
  REQUIRE(other.ok());
  CHECK(other->CopyEncoder(*first).code() == StatusCode::kInvalidArgument);
  CHECK(ProGapStage::Create(Config(-1), 1).status().code() == StatusCode::kInvalidArgument);
  ProGapStageConfig no_classes = Config(0);
  no_classes.classes = 0;
  CHECK(ProGapStage::Create(no_classes, 1).status().code() == StatusCode::kInvalidArgument);
}

TEST_CASE("ProGapStage.ItsExamplesStaySeparableForDpSgd") {
  // Per-example clipping needs each row's gradient alone: the join and the
  // normalisation act row by row, so the tape must still say so.
  Result<ProGapStage> stage = ProGapStage::Create(Config(1), 3);
  REQUIRE(stage.ok());
  std::vector<double> norms(5, 0.0);
  Tape tape(true, nullptr);
  tape.TrackRowGradientNorms(&norms);
  const ProGapStage::Output out =
      stage->Forward(tape, tape.Constant(RandomMatrix(5, 6, 2)), {tape.Constant(RandomMatrix(5, 4, 3))});
  std::vector<int> labels = {0, 1, 2, 0, 1};
  for (Parameter* p : stage->Parameters()) p->ZeroGrad();
  tape.Backward(tape.SoftmaxCrossEntropy(out.scores, &labels));
  CHECK(tape.RowsSeparable());
  for (double n : norms) CHECK(n > 0);
}
