// Finite-difference checks of every engine operation, the loss and whole
// models: the analytic gradient of each parameter and input must match
// central differences of the loss.
#include "engine/tape.h"

#include <doctest/doctest.h>

#include <cmath>
#include <functional>

#include "graph/graph_batch.h"
#include "models/gin.h"
#include "models/graph_gcn.h"
#include "models/node_gnn.h"
#include "ldpgraph/samplers.h"

using namespace ldpgraph;

namespace {

Parameter Random(const std::string& name, int rows, int cols, std::uint64_t seed, float scale = 1.0f) {
  Parameter p(name, rows, cols);
  SeededRandomSource rng(seed);
  p.InitUniform(rng, scale);
  return p;
}

// Builds the loss on a fresh tape from the current parameter values.
using LossFn = std::function<Tape::Var(Tape&)>;

double LossValue(const LossFn& loss, bool training) {
  SeededRandomSource rng(99);  // the same dropout masks on every evaluation
  Tape tape(training, &rng);
  return tape.value(loss(tape))(0, 0);
}

void CheckGradients(const LossFn& loss, const std::vector<Parameter*>& params, bool training = true,
                    double step = 1e-2, double tolerance = 2e-2) {
  for (Parameter* p : params) p->ZeroGrad();
  {
    SeededRandomSource rng(99);
    Tape tape(training, &rng);
    tape.Backward(loss(tape));
  }
  int checked = 0;
  for (Parameter* p : params) {
    for (Eigen::Index i = 0; i < p->value.size(); ++i) {
      float& v = p->value.data()[i];
      const float saved = v;
      v = saved + static_cast<float>(step);
      const double up = LossValue(loss, training);
      v = saved - static_cast<float>(step);
      const double down = LossValue(loss, training);
      v = saved;
      const double numeric = (up - down) / (2 * step);
      const double analytic = p->grad.data()[i];
      INFO(p->name << "[" << i << "]: analytic " << analytic << ", numeric " << numeric);
      CHECK(std::fabs(analytic - numeric) <= tolerance * std::max({1.0, std::fabs(analytic), std::fabs(numeric)}));
      ++checked;
    }
  }
  CHECK(checked > 0);
}

// A small random graph pair as one batch.
GraphBatch SmallBatch(Aggregation aggregation, std::vector<PreparedGraph>* storage) {
  CsrGraph a = CsrGraph::FromUndirectedEdges(5, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}, {0, 2}});
  CsrGraph b = CsrGraph::FromRows({{1, 2}, {2}, {0}, {}});  // directed rows and an isolated node
  storage->push_back(PrepareGraph(a, aggregation));
  storage->push_back(PrepareGraph(b, aggregation));
  return MakeBatch(*storage, {0, 1}, {1, 0});
}

// A whole graph classifier on SmallBatch's two graphs (2 input columns):
// its parameters and its node inputs, through the loss, against central
// differences.
void CheckWholeGraphModel(GraphModel* model, const GraphBatch& batch, std::uint64_t seed) {
  Parameter x = Random("x", 9, 2, seed);
  CheckGradients(
      [&](Tape& t) { return t.SoftmaxCrossEntropy(model->Forward(t, batch, t.Param(&x)), &batch.labels); },
      [&] {
        auto params = model->Parameters();
        params.push_back(&x);
        return params;
      }(),
      true, 5e-3, 5e-2);
}

}  // namespace

TEST_CASE("Gradient.Linear") {
  Parameter x = Random("x", 6, 4, 1), w = Random("w", 4, 3, 2), b = Random("b", 1, 3, 3);
  Matrix r = Random("r", 6, 3, 4).value;
  CheckGradients([&](Tape& t) { return t.Dot(t.Linear(t.Param(&x), t.Param(&w), t.Param(&b)), &r); }, {&x, &w, &b});
}

TEST_CASE("Gradient.LinearOnManyRowsUsesThreadsAndStaysExact") {
  Parameter x = Random("x", 3000, 3, 5), w = Random("w", 3, 2, 6), b = Random("b", 1, 2, 7);
  Matrix r = Random("r", 3000, 2, 8).value;
  CheckGradients([&](Tape& t) { return t.Dot(t.Linear(t.Param(&x), t.Param(&w), t.Param(&b)), &r); }, {&w, &b},
                 true, 1e-2, 3e-2);
}

TEST_CASE("Gradient.ReluAndSelu") {
  Parameter x = Random("x", 5, 4, 9);
  for (Eigen::Index i = 0; i < x.value.size(); ++i) {  // keep away from the kink at 0
    float& v = x.value.data()[i];
    if (std::fabs(v) < 0.1f) v = 0.3f;
  }
  Matrix r = Random("r", 5, 4, 10).value;
  CheckGradients([&](Tape& t) { return t.Dot(t.Relu(t.Param(&x)), &r); }, {&x});
  CheckGradients([&](Tape& t) { return t.Dot(t.Selu(t.Param(&x)), &r); }, {&x});
}

TEST_CASE("Gradient.BatchNormTrainingAndEval") {
  Parameter x = Random("x", 7, 3, 11), gamma = Random("gamma", 1, 3, 12), beta = Random("beta", 1, 3, 13);
  Matrix r = Random("r", 7, 3, 14).value;
  BatchNormStats stats;
  CheckGradients([&](Tape& t) { return t.Dot(t.BatchNorm(t.Param(&x), t.Param(&gamma), t.Param(&beta), &stats), &r); },
                 {&x, &gamma, &beta}, true);
  stats.mean = RowVector::Constant(3, 0.2f);
  stats.var = RowVector::Constant(3, 1.5f);
  CheckGradients([&](Tape& t) { return t.Dot(t.BatchNorm(t.Param(&x), t.Param(&gamma), t.Param(&beta), &stats), &r); },
                 {&x, &gamma, &beta}, false);
}

TEST_CASE("Gradient.FusedBatchNormRelu") {
  Parameter x = Random("x", 8, 3, 26), gamma = Random("gamma", 1, 3, 27), beta = Random("beta", 1, 3, 28);
  Matrix r = Random("r", 8, 3, 29).value;
  BatchNormStats stats;
  CheckGradients(
      [&](Tape& t) { return t.Dot(t.BatchNormRelu(t.Param(&x), t.Param(&gamma), t.Param(&beta), &stats), &r); },
      {&x, &gamma, &beta}, true, 1e-3, 3e-2);
  // Same values as the two operations apart.
  SeededRandomSource rng(1);
  Tape t(true, &rng);
  BatchNormStats s1, s2;
  const Matrix fused = t.value(t.BatchNormRelu(t.Param(&x), t.Param(&gamma), t.Param(&beta), &s1));
  const Matrix apart = t.value(t.Relu(t.BatchNorm(t.Param(&x), t.Param(&gamma), t.Param(&beta), &s2)));
  CHECK(fused.isApprox(apart));
}

TEST_CASE("Gradient.LinearBatchNorm") {
  Parameter x = Random("x", 9, 4, 30), w = Random("w", 4, 3, 31), b = Random("b", 1, 3, 32);
  Parameter gamma = Random("gamma", 1, 3, 33), beta = Random("beta", 1, 3, 34);
  Matrix r = Random("r", 9, 3, 35).value;
  for (bool relu : {false, true}) {
    CAPTURE(relu);
    BatchNormStats stats;
    CheckGradients(
        [&](Tape& t) {
          return t.Dot(t.LinearBatchNorm(t.Param(&x), t.Param(&w), t.Param(&b), t.Param(&gamma), t.Param(&beta),
                                         &stats, relu),
                       &r);
        },
        {&x, &w, &b, &gamma, &beta}, true, 1e-3, 3e-2);
  }
}

// The fused operation against Linear then BatchNorm(Relu) on a batch large
// enough for threads and many sub-blocks, with a running mean far from the
// batch's (the shift of its one-pass variance): the same values, gradients
// and running statistics up to the order of sums. Outputs within 1e-3 of
// the ReLU's kink get no upstream gradient: the two orders of sums may clip
// them differently, which would be a true difference of one row's share.
TEST_CASE("Gradient.LinearBatchNormIsLinearThenBatchNorm") {
  Parameter x = Random("x", 5000, 64, 36), w = Random("w", 64, 64, 37, 0.2f), b = Random("b", 1, 64, 38);
  Parameter gamma = Random("gamma", 1, 64, 39), beta = Random("beta", 1, 64, 40);
  BatchNormStats start;
  start.mean = RowVector::Constant(64, 3.0f);
  start.var = RowVector::Constant(64, 2.0f);
  Matrix r = Random("r", 5000, 64, 41).value;
  {
    BatchNormStats probe = start;
    Tape t(true, nullptr);
    const Matrix z =
        t.value(t.BatchNorm(t.Linear(t.Param(&x), t.Param(&w), t.Param(&b)), t.Param(&gamma), t.Param(&beta), &probe));
    r = (z.array().abs() < 1e-3f).select(0.0f, r);
  }
  for (bool relu : {false, true}) {
    CAPTURE(relu);
    BatchNormStats fused_stats = start, apart_stats = start;
    std::vector<Parameter*> params = {&x, &w, &b, &gamma, &beta};
    std::vector<Matrix> fused_grads, apart_grads;
    Matrix fused, apart;
    for (bool together : {true, false}) {
      for (Parameter* p : params) p->ZeroGrad();
      SeededRandomSource rng(1);
      Tape t(true, &rng);
      Tape::Var y;
      if (together) {
        y = t.LinearBatchNorm(t.Param(&x), t.Param(&w), t.Param(&b), t.Param(&gamma), t.Param(&beta), &fused_stats,
                              relu);
      } else {
        const Tape::Var pre = t.Linear(t.Param(&x), t.Param(&w), t.Param(&b));
        y = relu ? t.BatchNormRelu(pre, t.Param(&gamma), t.Param(&beta), &apart_stats)
                 : t.BatchNorm(pre, t.Param(&gamma), t.Param(&beta), &apart_stats);
      }
      (together ? fused : apart) = t.value(y);
      t.Backward(t.Dot(y, &r));
      for (Parameter* p : params) (together ? fused_grads : apart_grads).push_back(p->grad);
    }
    CHECK((fused - apart).cwiseAbs().maxCoeff() < 1e-3f);
    for (std::size_t i = 0; i < params.size(); ++i) {
      CAPTURE(params[i]->name);
      const float scale = std::max(1.0f, apart_grads[i].cwiseAbs().maxCoeff());
      CHECK((fused_grads[i] - apart_grads[i]).cwiseAbs().maxCoeff() < 1e-3f * scale);
    }
    CHECK(fused_stats.mean.isApprox(apart_stats.mean, 1e-5f));
    CHECK(fused_stats.var.isApprox(apart_stats.var, 1e-4f));
  }
}

TEST_CASE("Gradient.NormalisedMlp") {
  Parameter x = Random("x", 9, 4, 42), w1 = Random("w1", 4, 3, 43), b1 = Random("b1", 1, 3, 44);
  Parameter g1 = Random("g1", 1, 3, 45), be1 = Random("be1", 1, 3, 46), w2 = Random("w2", 3, 2, 47);
  Parameter b2 = Random("b2", 1, 2, 48), g2 = Random("g2", 1, 2, 49), be2 = Random("be2", 1, 2, 50);
  Matrix r = Random("r", 9, 2, 51).value;
  BatchNormStats s1, s2;
  CheckGradients(
      [&](Tape& t) {
        const Tape::NormalisedLinear first{t.Param(&w1), t.Param(&b1), t.Param(&g1), t.Param(&be1), &s1};
        const Tape::NormalisedLinear second{t.Param(&w2), t.Param(&b2), t.Param(&g2), t.Param(&be2), &s2};
        return t.Dot(t.NormalisedMlp(t.Param(&x), first, second), &r);
      },
      {&x, &w1, &b1, &g1, &be1, &w2, &b2, &g2, &be2}, true, 1e-3, 3e-2);
}

// Bit for bit the two LinearBatchNorms it fuses, on a batch for threads and
// many sub-blocks, with float and with bfloat16 products: values, every
// gradient and both running statistics.
TEST_CASE("Gradient.NormalisedMlpIsTwoLinearBatchNormsExactly") {
  Parameter x = Random("x", 5000, 48, 52), w1 = Random("w1", 48, 64, 53, 0.2f), b1 = Random("b1", 1, 64, 54);
  Parameter g1 = Random("g1", 1, 64, 55), be1 = Random("be1", 1, 64, 56), w2 = Random("w2", 64, 32, 57, 0.2f);
  Parameter b2 = Random("b2", 1, 32, 58), g2 = Random("g2", 1, 32, 59), be2 = Random("be2", 1, 32, 60);
  const Matrix r = Random("r", 5000, 32, 61).value;
  std::vector<Parameter*> params = {&x, &w1, &b1, &g1, &be1, &w2, &b2, &g2, &be2};
  for (bool bf16 : {false, true}) {
    CAPTURE(bf16);
    std::vector<Matrix> values, grads[2];
    BatchNormStats stats[2][2];
    for (int fused = 0; fused < 2; ++fused) {
      for (Parameter* p : params) p->ZeroGrad();
      Tape t(true, nullptr);
      t.UseBf16Products(bf16);
      const Tape::NormalisedLinear first{t.Param(&w1), t.Param(&b1), t.Param(&g1), t.Param(&be1), &stats[fused][0]};
      const Tape::NormalisedLinear second{t.Param(&w2), t.Param(&b2), t.Param(&g2), t.Param(&be2),
                                          &stats[fused][1]};
      Tape::Var y;
      if (fused == 1) {
        y = t.NormalisedMlp(t.Param(&x), first, second);
      } else {
        const Tape::Var hidden =
            t.LinearBatchNorm(t.Param(&x), first.w, first.b, first.gamma, first.beta, first.stats, true);
        y = t.LinearBatchNorm(hidden, second.w, second.b, second.gamma, second.beta, second.stats, true);
      }
      values.push_back(t.value(y));
      t.Backward(t.Dot(y, &r));
      for (Parameter* p : params) grads[fused].push_back(p->grad);
    }
    CHECK(values[0] == values[1]);
    for (std::size_t i = 0; i < params.size(); ++i) {
      CAPTURE(params[i]->name);
      CHECK(grads[0][i] == grads[1][i]);
    }
    for (int layer = 0; layer < 2; ++layer) {
      CHECK(stats[0][layer].mean == stats[1][layer].mean);
      CHECK(stats[0][layer].var == stats[1][layer].var);
    }
  }
}

TEST_CASE("Gradient.DropoutWithAFixedMask") {
  Parameter x = Random("x", 6, 3, 15);
  Matrix r = Random("r", 6, 3, 16).value;
  CheckGradients([&](Tape& t) { return t.Dot(t.Dropout(t.Param(&x), 0.5f), &r); }, {&x});
}

TEST_CASE("Gradient.AggregationsAndPooling") {
  for (auto aggregation : {Aggregation::kSumWithSelf, Aggregation::kMean, Aggregation::kGcn, Aggregation::kSymNoSelf}) {
    std::vector<PreparedGraph> storage;
    GraphBatch batch = SmallBatch(aggregation, &storage);
    Parameter x = Random("x", 9, 3, 17);
    Matrix r = Random("r", 9, 3, 18).value;
    Matrix rp = Random("rp", 2, 3, 19).value;
    CheckGradients([&](Tape& t) { return t.Dot(t.Aggregate(&batch.agg, &batch.agg_t, t.Param(&x)), &r); }, {&x});
    for (bool mean : {false, true}) {
      CheckGradients([&](Tape& t) { return t.Dot(t.Pool(&batch.offsets, t.Param(&x), mean), &rp); }, {&x});
    }
  }
}

TEST_CASE("Gradient.AddAndScale") {
  Parameter a = Random("a", 3, 2, 20), b = Random("b", 3, 2, 21);
  Matrix r = Random("r", 3, 2, 22).value;
  CheckGradients([&](Tape& t) { return t.Dot(t.Scale(t.Add(t.Param(&a), t.Param(&b)), -1.7f), &r); }, {&a, &b});
}

TEST_CASE("Gradient.SoftmaxCrossEntropyPlainAndForwardCorrected") {
  Parameter z = Random("z", 5, 3, 23, 2.0f);
  const std::vector<int> labels = {0, 2, -1, 1, 2};  // row 2 is ignored
  CheckGradients([&](Tape& t) { return t.SoftmaxCrossEntropy(t.Param(&z), &labels); }, {&z});
  Matrix transition(3, 3);
  transition << 0.7f, 0.2f, 0.1f, 0.15f, 0.7f, 0.15f, 0.1f, 0.2f, 0.7f;
  CheckGradients([&](Tape& t) { return t.SoftmaxCrossEntropy(t.Param(&z), &labels, &transition); }, {&z});
}

TEST_CASE("Gradient.WeightedCrossEntropySum") {
  Parameter z = Random("z", 5, 3, 29, 2.0f);
  const std::vector<int> labels = {0, 2, -1, 1, 2};  // row 2 is ignored
  const std::vector<float> weights = {1.0f, 0.25f, 3.0f, 0.0f, 2.0f};
  CheckGradients([&](Tape& t) { return t.WeightedCrossEntropySum(t.Param(&z), &labels, &weights); }, {&z});
}

TEST_CASE("Gradient.DropLossPieces") {
  // Drop's loss: softmax, forward correction by a constant T, KProp, NLL.
  Parameter z = Random("z", 9, 3, 24, 2.0f);
  Matrix r = Random("r", 9, 3, 25).value;
  Matrix transition(3, 3);
  transition << 0.7f, 0.2f, 0.1f, 0.15f, 0.7f, 0.15f, 0.1f, 0.2f, 0.7f;
  CheckGradients([&](Tape& t) { return t.Dot(t.SoftmaxRows(t.Param(&z)), &r); }, {&z});
  CheckGradients([&](Tape& t) { return t.Dot(t.MatMulConstant(t.Param(&z), &transition), &r); }, {&z});
  std::vector<PreparedGraph> storage;
  GraphBatch batch = SmallBatch(Aggregation::kMean, &storage);
  const std::vector<int> labels = {0, 2, -1, 1, 2, 0, -1, 1, 1};
  CheckGradients(
      [&](Tape& t) {
        Tape::Var p = t.MatMulConstant(t.SoftmaxRows(t.Param(&z)), &transition);
        p = t.Aggregate(&batch.agg, &batch.agg_t, p);
        return t.ProbabilityNll(t.Add(p, t.Constant(Matrix::Constant(9, 3, 0.05f))), &labels);
      },
      {&z});
}

TEST_CASE("Gradient.WholeGinModel") {
  std::vector<PreparedGraph> storage;
  GraphBatch batch = SmallBatch(Aggregation::kSumWithSelf, &storage);
  GinConfig config;
  config.hidden = 4;
  config.layers = 3;
  config.classes = 2;
  config.dropout = 0.5f;
  config.input_dim = 2;
  auto model = GinModel::Create(config, 7);
  REQUIRE(model.ok());
  CheckWholeGraphModel(&*model, batch, 24);
}

TEST_CASE("Gradient.WholeGraphGcnModel") {
  std::vector<PreparedGraph> storage;
  GraphBatch batch = SmallBatch(Aggregation::kGcn, &storage);
  GraphGcnConfig config;
  config.input_dim = 2;
  config.hidden = 4;
  auto model = GraphGcnModel::Create(config, 5);
  REQUIRE(model.ok());
  CheckWholeGraphModel(&*model, batch, 25);
}

TEST_CASE("Gradient.LinearWithoutBiasAndAddBias") {
  Parameter x = Random("x", 6, 4, 1), w = Random("w", 4, 3, 2), b = Random("b", 1, 3, 3);
  Matrix r = Random("r", 6, 3, 4).value;
  CheckGradients([&](Tape& t) { return t.Dot(t.AddBias(t.Linear(t.Param(&x), t.Param(&w), Tape::kNone), t.Param(&b)), &r); },
                 {&x, &w, &b});
}

TEST_CASE("Gradient.ConcatColumns") {
  Parameter a = Random("a", 5, 2, 11), b = Random("b", 5, 3, 12), c = Random("c", 5, 1, 13);
  Matrix r = Random("r", 5, 6, 14).value;
  CheckGradients([&](Tape& t) { return t.Dot(t.ConcatColumns({t.Param(&a), t.Param(&b), t.Param(&c)}), &r); },
                 {&a, &b, &c});
}

TEST_CASE("Gradient.NormaliseRows") {
  Parameter x = Random("x", 4, 3, 21);
  Matrix r = Random("r", 4, 3, 22).value;
  CheckGradients([&](Tape& t) { return t.Dot(t.NormaliseRows(t.Param(&x)), &r); }, {&x}, true, 1e-3);
  Tape tape(false, nullptr);
  const Matrix& y = tape.value(tape.NormaliseRows(tape.Constant(x.value)));
  for (Eigen::Index i = 0; i < y.rows(); ++i) CHECK(y.row(i).norm() == doctest::Approx(1).epsilon(1e-5));
}

TEST_CASE("Gradient.SparseProductWithDropout") {
  // x W on a sparse input with half its entries dropped (the same mask in
  // every evaluation: the checker reseeds the tape's generator).
  SparseMatrix x;
  x.rows = 5;
  x.cols = 6;
  x.offsets = {0, 2, 2, 5, 6, 8};
  x.indices = {0, 4, 1, 2, 5, 3, 0, 5};
  for (bool unit : {true, false}) {
    x.values = unit ? std::vector<float>{} : std::vector<float>{0.5f, -1, 2, 1.5f, -0.25f, 1, 3, -2};
    Parameter w = Random("w", 6, 3, 6), b = Random("b", 1, 3, 7);
    Matrix r = Random("r", 5, 3, 8).value;
    CAPTURE(unit);
    CheckGradients(
        [&](Tape& t) { return t.Dot(t.AddBias(t.InputProduct(t.Input(&x, 0.5f), t.Param(&w)), t.Param(&b)), &r); },
        {&w, &b});
  }
}

TEST_CASE("Gradient.WholeSageAndGcnOnWideSparseAndDenseInputs") {
  // Wider inputs than outputs: every layer aggregates after its product, the
  // first reading the features through Tape::Input.
  for (auto kind : {NodeGnnKind::kSage, NodeGnnKind::kGcn}) {
    for (bool sparse : {true, false}) {
      CsrGraph whole = CsrGraph::FromUndirectedEdges(9, {{0, 1}, {1, 2}, {2, 3}, {5, 6}, {6, 7}, {4, 0}, {8, 2}});
      PreparedGraph graph = PrepareGraph(whole, AggregationFor(kind));
      SparseMatrix x;
      x.rows = 9;
      x.cols = 12;
      for (std::int32_t v = 0; v < 9; ++v) {
        x.indices.push_back(v);
        x.indices.push_back(v + 3);
        x.offsets.push_back(static_cast<std::int64_t>(x.indices.size()));
      }
      const NodeFeatures features = sparse ? NodeFeatures::Sparse(x) : NodeFeatures::Dense(ToDense(x));
      NodeGnnConfig c;
      c.kind = kind;
      c.input_dim = 12;
      c.hidden = 5;
      c.classes = 3;
      auto model = NodeGnnModel::Create(c, 5);
      REQUIRE(model.ok());
      const std::vector<int> labels = {0, 1, 2, -1, 0, 1, 2, 0, 1};
      CAPTURE(sparse);
      CheckGradients([&](Tape& t) { return t.SoftmaxCrossEntropy(model->Forward(t, graph, features), &labels); },
                     model->Parameters(), true, 5e-3, 5e-2);
    }
  }
}

TEST_CASE("Gradient.WholeSageAndGcnWithKProp") {
  for (auto kind : {NodeGnnKind::kSage, NodeGnnKind::kGcn}) {
    std::vector<PreparedGraph> storage;
    GraphBatch batch = SmallBatch(AggregationFor(kind), &storage);
    CsrGraph whole = CsrGraph::FromUndirectedEdges(9, {{0, 1}, {1, 2}, {2, 3}, {5, 6}, {6, 7}, {4, 0}});
    PreparedGraph graph = PrepareGraph(whole, AggregationFor(kind));
    PreparedGraph kprop = PrepareGraph(whole, Aggregation::kSymNoSelf);
    NodeGnnConfig c;
    c.kind = kind;
    c.input_dim = 3;
    c.hidden = 4;
    c.classes = 3;
    c.kprop_steps = 2;
    auto model = NodeGnnModel::Create(c, 5);
    REQUIRE(model.ok());
    Parameter x = Random("x", 9, 3, 25);
    const std::vector<int> labels = {0, 1, 2, -1, 0, 1, 2, 0, -1};
    CheckGradients(
        [&](Tape& t) { return t.SoftmaxCrossEntropy(model->Forward(t, graph, t.Param(&x), &kprop), &labels); },
        [&] {
          auto params = model->Parameters();
          params.push_back(&x);
          return params;
        }(),
        true, 5e-3, 5e-2);
  }
}
