// Node models on sparse and dense inputs: a layer that aggregates after its
// product computes the formula it stands for, sparse features give the same
// scores as the same features dense, and dropout on sparse inputs drops
// stored entries with its probability.
#include "models/node_gnn.h"

#include <doctest/doctest.h>

#include <cmath>

#include "ldpgraph/samplers.h"

using namespace ldpgraph;

namespace {

// A random n x f sparse matrix with about `per_row` entries a row, weights
// in [0, 1) (or none: binary).
SparseMatrix RandomFeatures(std::int64_t n, std::int64_t f, int per_row, bool binary, RandomSource& rng) {
  SparseMatrix x;
  x.rows = n;
  x.cols = f;
  for (std::int64_t r = 0; r < n; ++r) {
    for (std::int64_t c = 0; c < f; ++c) {
      if (UniformBelow(rng, static_cast<std::uint64_t>(f)) >= static_cast<std::uint64_t>(per_row)) continue;
      x.indices.push_back(static_cast<std::int32_t>(c));
      if (!binary) x.values.push_back(static_cast<float>(UniformUnit(rng)));
    }
    x.offsets.push_back(x.nnz());
  }
  return x;
}

CsrGraph RandomGraph(std::uint32_t n, RandomSource& rng) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
  for (std::uint32_t k = 0; k < 4 * n; ++k) {
    edges.emplace_back(static_cast<std::uint32_t>(UniformBelow(rng, n)), static_cast<std::uint32_t>(UniformBelow(rng, n)));
  }
  return CsrGraph::FromUndirectedEdges(n, edges);
}

Matrix Scores(NodeGnnModel* model, const PreparedGraph& graph, const NodeFeatures& x) {
  Tape tape(false, nullptr);
  return tape.value(model->Forward(tape, graph, x));
}

const Matrix& ValueOf(NodeGnnModel* model, const std::string& name) {
  for (Parameter* p : model->Parameters()) {
    if (p->name == name) return p->value;
  }
  FAIL("no parameter " << name);
  static Matrix none;
  return none;
}

}  // namespace

TEST_CASE("NodeGnn.OneLayerComputesItsFormulaOnEitherSide") {
  // input 6 > classes 3: aggregated after the product; input 2 < 3: before.
  SeededRandomSource rng(1);
  const CsrGraph g = RandomGraph(40, rng);
  for (int input : {6, 2}) {
    for (auto kind : {NodeGnnKind::kGcn, NodeGnnKind::kSage}) {
      const PreparedGraph graph = PrepareGraph(g, AggregationFor(kind));
      const Matrix a = ToDense(graph.agg);
      Matrix x(40, input);
      for (Eigen::Index i = 0; i < x.size(); ++i) x.data()[i] = static_cast<float>(UniformUnit(rng)) - 0.5f;
      NodeGnnConfig c;
      c.kind = kind;
      c.input_dim = input;
      c.layers = 1;
      c.classes = 3;
      auto model = NodeGnnModel::Create(c, 2);
      REQUIRE(model.ok());
      Matrix expected;
      if (kind == NodeGnnKind::kGcn) {
        expected = a * x * ValueOf(&*model, "conv.0.lin.weight");
        expected.rowwise() += ValueOf(&*model, "conv.0.lin.bias").row(0);
      } else {
        expected = x * ValueOf(&*model, "conv.0.root.weight") + a * x * ValueOf(&*model, "conv.0.neigh.weight");
        expected.rowwise() += ValueOf(&*model, "conv.0.root.bias").row(0) + ValueOf(&*model, "conv.0.neigh.bias").row(0);
      }
      CAPTURE(input);
      CAPTURE(static_cast<int>(kind));
      CHECK((Scores(&*model, graph, NodeFeatures::Dense(x)) - expected).cwiseAbs().maxCoeff() < 1e-5f);
    }
  }
}

TEST_CASE("NodeGnn.SparseFeaturesScoreAsTheSameFeaturesDense") {
  SeededRandomSource rng(3);
  const CsrGraph g = RandomGraph(3000, rng);  // several parallel row blocks
  for (bool binary : {true, false}) {
    const SparseMatrix x = RandomFeatures(3000, 300, 6, binary, rng);
    const NodeFeatures sparse = NodeFeatures::Sparse(x), dense = NodeFeatures::Dense(ToDense(x));
    for (auto kind : {NodeGnnKind::kGcn, NodeGnnKind::kSage}) {
      NodeGnnConfig c;
      c.kind = kind;
      c.input_dim = 300;
      c.classes = 5;
      auto model = NodeGnnModel::Create(c, 4);
      REQUIRE(model.ok());
      const PreparedGraph graph = PrepareGraph(g, AggregationFor(kind));
      const Matrix from_sparse = Scores(&*model, graph, sparse), from_dense = Scores(&*model, graph, dense);
      CAPTURE(binary);
      CAPTURE(static_cast<int>(kind));
      CHECK((from_sparse - from_dense).cwiseAbs().maxCoeff() < 1e-4f * (1 + from_dense.cwiseAbs().maxCoeff()));
    }
  }
}

TEST_CASE("NodeGnn.SparseKPropInTheModelEqualsDenseKProp") {
  SeededRandomSource rng(4);
  const CsrGraph g = RandomGraph(200, rng);
  const SparseMatrix x = RandomFeatures(200, 50, 4, false, rng);
  NodeGnnConfig c;
  c.kind = NodeGnnKind::kGcn;
  c.input_dim = 50;
  c.classes = 3;
  c.kprop_steps = 2;
  auto model = NodeGnnModel::Create(c, 6);
  REQUIRE(model.ok());
  const PreparedGraph graph = PrepareGraph(g, Aggregation::kGcn);
  const Matrix from_sparse = Scores(&*model, graph, NodeFeatures::Sparse(x));
  const Matrix from_dense = Scores(&*model, graph, NodeFeatures::Dense(ToDense(x)));
  CHECK((from_sparse - from_dense).cwiseAbs().maxCoeff() < 1e-5f);
}

TEST_CASE("NodeGnn.BorrowedFeaturesScoreExactlyAsHeldOnesAndAreNotCopied") {
  // A caller's buffer (a numpy array from Python) read in place: wide inputs
  // through the first layer's product, narrow ones and in-model KProp through
  // a constant; every path gives the held matrix's scores bit for bit.
  SeededRandomSource rng(5);
  const CsrGraph g = RandomGraph(500, rng);
  for (int input : {40, 2}) {
    for (int kprop : {0, 2}) {
      Matrix x(500, input);
      for (Eigen::Index i = 0; i < x.size(); ++i) x.data()[i] = static_cast<float>(UniformUnit(rng));
      const NodeFeatures view = NodeFeatures::DenseView(x.data(), x.rows(), x.cols());
      REQUIRE(view.is_view());
      CHECK(view.dense().data() == x.data());
      CHECK(view.Rows({3, 1}).dense() == x(std::vector<int>{3, 1}, Eigen::all));
      NodeGnnConfig c;
      c.input_dim = input;
      c.classes = 3;
      c.kprop_steps = kprop;
      auto model = NodeGnnModel::Create(c, 7);
      REQUIRE(model.ok());
      const PreparedGraph graph = PrepareGraph(g, Aggregation::kGcn);
      CAPTURE(input);
      CAPTURE(kprop);
      CHECK(Scores(&*model, graph, view) == Scores(&*model, graph, NodeFeatures::Dense(x)));
      // Training mode: dropout's mask over the borrowed input equals the held one's.
      SeededRandomSource held_rng(9), borrowed_rng(9);
      Tape held(true, &held_rng), borrowed(true, &borrowed_rng);
      CHECK(held.value(model->Forward(held, graph, NodeFeatures::Dense(x))) ==
            borrowed.value(model->Forward(borrowed, graph, view)));
    }
  }
}

TEST_CASE("Tape.SparseDropoutDropsStoredEntriesWithItsProbability") {
  // x W with W the identity reads the dropped input back.
  SeededRandomSource rng(5);
  const SparseMatrix x = RandomFeatures(4000, 40, 10, false, rng);
  Parameter identity("w", 40, 40);
  identity.value.setIdentity();
  const Matrix original = ToDense(x);
  for (float p : {0.2f, 0.5f}) {
    SeededRandomSource dropout_rng(7);
    Tape tape(true, &dropout_rng);
    const Matrix y = tape.value(tape.InputProduct(tape.Input(&x, p), tape.Param(&identity)));
    const float keep_scale = 1.0f / (1.0f - p);
    std::int64_t dropped = 0;
    for (Eigen::Index i = 0; i < y.size(); ++i) {
      const float in = original.data()[i], out = y.data()[i];
      if (in == 0.0f) {
        REQUIRE(out == 0.0f);  // zeros stay zero
      } else if (out == 0.0f) {
        ++dropped;
      } else {
        REQUIRE(out == doctest::Approx(in * keep_scale).epsilon(1e-4));  // survivors scaled: E[out] = in
      }
    }
    const double n = static_cast<double>(x.nnz()), expected = p * n;
    CAPTURE(p);
    CHECK(std::fabs(static_cast<double>(dropped) - expected) < 5 * std::sqrt(n * p * (1 - p)));
    Tape eval(false, nullptr);
    CHECK(eval.value(eval.InputProduct(eval.Input(&x, p), eval.Param(&identity))) == original);
  }
}

TEST_CASE("Tape.DropoutOnAConstantDrawsTheMaskAVariableWouldGet") {
  // The constant path draws its mask a block at a time without keeping it;
  // the generator's words must go to the same elements either way.
  Parameter x("x", 3001, 7);  // not a whole number of blocks
  x.value.setOnes();
  SeededRandomSource rng_a(11), rng_b(11);
  Tape as_constant(true, &rng_a), as_variable(true, &rng_b);
  const Matrix a = as_constant.value(as_constant.Dropout(as_constant.ConstantView(&x.value), 0.3f));
  const Matrix b = as_variable.value(as_variable.Dropout(as_variable.Param(&x), 0.3f));
  CHECK(a == b);
  CHECK((a.array() == 0.0f).count() > 0);
}

TEST_CASE("Tape.DenseInputProductEqualsDropoutThenProduct") {
  // The dense input path keeps its mask as bits and drops rows a block at a
  // time; the product and the weight gradient must be those of Dropout then
  // Linear with the same generator, in training and in eval mode.
  SeededRandomSource fill(12);
  Matrix x(2500, 700);  // several buffered blocks per thread
  for (Eigen::Index i = 0; i < x.size(); ++i) x.data()[i] = static_cast<float>(UniformUnit(fill)) - 0.5f;
  for (bool training : {true, false}) {
    Parameter w_fused("w", 700, 16), w_plain("w", 700, 16);
    w_fused.InitUniform(fill, 0.1f);
    w_plain.value = w_fused.value;
    const Matrix g = Matrix::Constant(2500, 16, 0.01f);
    SeededRandomSource rng_a(13), rng_b(13);
    Tape fused(training, &rng_a), plain(training, &rng_b);
    const Tape::Var a = fused.InputProduct(fused.Input(&x, 0.4f), fused.Param(&w_fused));
    const Tape::Var b = plain.Linear(plain.Dropout(plain.ConstantView(&x), 0.4f), plain.Param(&w_plain), Tape::kNone);
    CAPTURE(training);
    CHECK((fused.value(a) - plain.value(b)).cwiseAbs().maxCoeff() < 1e-5f);
    w_fused.ZeroGrad();
    w_plain.ZeroGrad();
    fused.Backward(fused.Dot(a, &g));
    plain.Backward(plain.Dot(b, &g));
    CHECK((w_fused.grad - w_plain.grad).cwiseAbs().maxCoeff() < 1e-4f);
  }
}
