// Factored features (P^k S + L R) against the same features made dense: a
// node model scores them the same and learns the same gradients, KProp and
// standardisation in factors equal the dense path's, and the multi-bit
// mechanism's factored estimates are the rectifier's dense ones.
#include "engine/factored_features.h"
#include "engine/propagated_product_cache.h"

#include <doctest/doctest.h>

#include <cmath>

#include "ldpgraph/multibit.h"
#include "ldpgraph/samplers.h"
#include "models/node_gnn.h"
#include "privacy/feature_mechanisms.h"
#include "train/factored_kprop.h"
#include "train/lpgnn_pipeline.h"
#include "util/seed_mix.h"

using namespace ldpgraph;

namespace {

// n users, each reporting `per_row` of d dimensions as +-scale, plus midpoints.
FactoredFeatures Reports(std::int64_t n, std::int64_t d, int per_row, float scale, RandomSource& rng) {
  SparseMatrix s;
  s.rows = n;
  s.cols = d;
  for (std::int64_t r = 0; r < n; ++r) {
    std::vector<std::int32_t> cols;
    while (static_cast<int>(cols.size()) < per_row) {
      const auto c = static_cast<std::int32_t>(UniformBelow(rng, static_cast<std::uint64_t>(d)));
      if (std::find(cols.begin(), cols.end(), c) == cols.end()) cols.push_back(c);
    }
    std::sort(cols.begin(), cols.end());
    for (std::int32_t c : cols) {
      s.indices.push_back(c);
      s.values.push_back(Bernoulli(rng, 0.5) ? scale : -scale);
    }
    s.offsets.push_back(s.nnz());
  }
  std::vector<float> offset(static_cast<std::size_t>(d));
  for (float& o : offset) o = static_cast<float>(UniformUnit(rng));
  return SparsePlusOffset(std::move(s), offset);
}

CsrGraph RandomGraph(std::uint32_t n, RandomSource& rng) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
  for (std::uint32_t k = 0; k < 3 * n; ++k) {
    edges.emplace_back(static_cast<std::uint32_t>(UniformBelow(rng, n)), static_cast<std::uint32_t>(UniformBelow(rng, n)));
  }
  return CsrGraph::FromUndirectedEdges(n, edges);  // some nodes isolated: P^k 1 is not 1 there
}

float MaxRelativeGap(const Matrix& a, const Matrix& b) {
  REQUIRE(a.rows() == b.rows());
  REQUIRE(a.cols() == b.cols());
  return (a - b).cwiseAbs().maxCoeff() / std::max(1.0f, b.cwiseAbs().maxCoeff());
}

}  // namespace

TEST_CASE("FactoredFeatures.ScoreAndLearnAsTheSameFeaturesDense") {
  SeededRandomSource rng(21);
  const std::uint32_t n = 300;
  const CsrGraph graph = RandomGraph(n, rng);
  const PreparedGraph mean = PrepareGraph(graph, Aggregation::kMean);
  const NodeFeatures reports = NodeFeatures::Factored(Reports(n, 50, 2, 40.0f, rng));
  for (NodeGnnKind kind : {NodeGnnKind::kGcn, NodeGnnKind::kSage}) {
    for (int steps : {0, 3}) {
      // Standardised after KProp, as the pipeline makes them: every factor in use.
      const NodeFeatures x = NodeModelInputs(graph, reports, steps, true);
      REQUIRE(x.is_factored());
      CHECK(x.factored().left.cols() == 2);
      const NodeFeatures dense = NodeFeatures::Dense(x.ToDense());
      NodeGnnConfig c;
      c.kind = kind;
      c.input_dim = 50;
      c.classes = 3;
      c.dropout = 0.0f;  // the factored path drops reported entries, the dense one any
      Result<NodeGnnModel> model = NodeGnnModel::Create(c, 4);
      REQUIRE(model.ok());
      const PreparedGraph prepared = PrepareGraph(graph, AggregationFor(kind));
      std::vector<Matrix> grads[2];
      Matrix scores[2];
      for (int which = 0; which < 2; ++which) {
        for (Parameter* p : model->Parameters()) p->ZeroGrad();
        SeededRandomSource dropout(3);
        Tape tape(true, &dropout);
        const Tape::Var out = model->Forward(tape, prepared, which == 0 ? x : dense);
        scores[which] = tape.value(out);
        const Matrix g = Matrix::Constant(n, 3, 0.01f);
        tape.Backward(tape.Dot(out, &g));
        for (Parameter* p : model->Parameters()) grads[which].push_back(p->grad);
      }
      CAPTURE(static_cast<int>(kind));
      CAPTURE(steps);
      CHECK(MaxRelativeGap(scores[0], scores[1]) < 1e-5f);
      for (std::size_t i = 0; i < grads[0].size(); ++i) CHECK(MaxRelativeGap(grads[0][i], grads[1][i]) < 1e-4f);
    }
  }
}

TEST_CASE("FactoredFeatures.AKeptPropagatedProductServesOnlyTheSameWeights") {
  // A training pass that takes the validation pass's P^k (S W) scores and
  // learns exactly as one that makes it; once W has changed, the kept one is
  // not used.
  SeededRandomSource rng(23);
  const std::uint32_t n = 300;
  const CsrGraph graph = RandomGraph(n, rng);
  const NodeFeatures x = NodeModelInputs(graph, NodeFeatures::Factored(Reports(n, 40, 2, 30.0f, rng)), 3, true);
  for (NodeGnnKind kind : {NodeGnnKind::kGcn, NodeGnnKind::kSage}) {
    CAPTURE(static_cast<int>(kind));
    NodeGnnConfig c;
    c.kind = kind;
    c.input_dim = 40;
    c.classes = 3;
    Result<NodeGnnModel> model = NodeGnnModel::Create(c, 6);
    REQUIRE(model.ok());
    const PreparedGraph prepared = PrepareGraph(graph, AggregationFor(kind));
    auto train_pass = [&](PropagatedProductCache* cache, std::vector<Matrix>* grads) {
      for (Parameter* p : model->Parameters()) p->ZeroGrad();
      SeededRandomSource dropout(8);
      Tape tape(true, &dropout);
      const Tape::Var out = model->Forward(tape, prepared, x, nullptr, cache);
      const Matrix g = Matrix::Constant(n, 3, 0.01f);
      tape.Backward(tape.Dot(out, &g));
      grads->clear();
      for (Parameter* p : model->Parameters()) grads->push_back(p->grad);
      return Matrix(tape.value(out));
    };
    auto evaluate = [&](PropagatedProductCache* cache) {
      Tape tape(false, nullptr);
      return Matrix(tape.value(model->Forward(tape, prepared, x, nullptr, cache)));
    };
    PropagatedProductCache cache;
    const Matrix evaluated = evaluate(&cache);
    REQUIRE(cache.slot(0).input == &x.factored());
    CHECK(evaluate(nullptr) == evaluated);
    std::vector<Matrix> made, taken;
    const Matrix made_scores = train_pass(nullptr, &made);
    const Matrix taken_scores = train_pass(&cache, &taken);
    CHECK(cache.slot(0).input == nullptr);  // taken
    CHECK(taken_scores == made_scores);
    REQUIRE(taken.size() == made.size());
    for (std::size_t i = 0; i < made.size(); ++i) CHECK(taken[i] == made[i]);

    evaluate(&cache);
    model->Parameters()[0]->value(0, 0) += 0.5f;  // a step changed W
    CHECK(train_pass(&cache, &taken) == train_pass(nullptr, &made));
  }
}

TEST_CASE("FactoredFeatures.ADroppedInputDropsReportedEntriesOnly") {
  // The product takes whatever input it is given (node models give it the
  // reports undropped and drop its units). With W the identity it reads the
  // input back: every unreported entry is its midpoint, every reported one is
  // kept (scaled) or dropped to its midpoint.
  SeededRandomSource rng(22);
  const FactoredFeatures f = Reports(2000, 20, 3, 10.0f, rng);
  LinearLayer layer("w", 20, 20, rng);
  std::vector<Parameter*> params;
  layer.Collect(&params);
  params[0]->value.setIdentity();
  SeededRandomSource dropout(5);
  Tape tape(true, &dropout);
  const Matrix y = tape.value(layer.FactoredProduct(tape, tape.Input(&f.sparse, 0.5f), f));
  const Matrix midpoints = f.right;
  std::int64_t dropped = 0;
  for (Eigen::Index r = 0; r < y.rows(); ++r) {
    Matrix expected = midpoints;
    for (std::int64_t k = f.sparse.offsets[r]; k < f.sparse.offsets[r + 1]; ++k) {
      const float mid = midpoints(0, f.sparse.indices[k]), got = y(r, f.sparse.indices[k]);
      if (std::fabs(got - mid) < 1e-4f) {
        ++dropped;
      } else {
        CHECK(got == doctest::Approx(mid + 2 * f.sparse.values[k]).epsilon(1e-4));
      }
      expected(0, f.sparse.indices[k]) = got;
    }
    REQUIRE((y.row(r) - expected.row(0)).cwiseAbs().maxCoeff() < 1e-5f);
  }
  const double entries = static_cast<double>(f.sparse.nnz());
  CHECK(std::fabs(static_cast<double>(dropped) - entries / 2) < 5 * std::sqrt(entries / 4));
}

TEST_CASE("FactoredKProp.EqualsDensePropagationAndStandardisation") {
  SeededRandomSource rng(23);
  const std::uint32_t n = 400;
  const CsrGraph graph = RandomGraph(n, rng);
  const PreparedGraph mean = PrepareGraph(graph, Aggregation::kMean);
  const FactoredFeatures f = Reports(n, 37, 2, 25.0f, rng);
  const NodeFeatures factored = NodeFeatures::Factored(f), dense = NodeFeatures::Dense(f.ToDense());
  // Blocks narrower than the matrix, one not dividing it.
  const std::vector<int> steps = {0, 1, 4, 9};
  const std::vector<ColumnStandardisation> blocked = PropagatedStandardisations(f, mean.agg, steps, 5);
  const std::vector<ColumnStandardisation> whole = PropagatedStandardisations(f, mean.agg, steps, 0);
  for (bool rectified : {false, true}) {
    PropagatedInputs from_factored(factored, mean, rectified, steps), from_dense(dense, mean, rectified);
    for (std::size_t i = 0; i < steps.size(); ++i) {
      const NodeFeatures& a = from_factored.At(steps[i]);
      const Matrix b = from_dense.At(steps[i]).ToDense();
      CAPTURE(rectified);
      CAPTURE(steps[i]);
      CHECK((a.is_factored() || (steps[i] == 0 && !rectified)));
      CHECK(MaxRelativeGap(a.ToDense(), b) < 1e-4f);
      for (std::size_t c = 0; c < 37; ++c) {
        CHECK(blocked[i].mean[c] == doctest::Approx(whole[i].mean[c]));
        CHECK(blocked[i].scale[c] == doctest::Approx(whole[i].scale[c]));
      }
    }
  }
  // Asked out of plan, a step is still found.
  PropagatedInputs unplanned(factored, mean, true);
  CHECK(MaxRelativeGap(unplanned.At(2).ToDense(), NodeModelInputs(graph, dense, 2, true).ToDense()) < 1e-4f);
}

TEST_CASE("FeatureMechanisms.MultiBitComesFactoredAsTheRectifierEstimates") {
  // The same users, sparse and dense, give the same reports; each row is
  // what the SDK's rectifier makes of the encoding the same seed draws.
  SeededRandomSource rng(24);
  const std::int64_t n = 50, d = 30;
  SparseMatrix s;
  s.rows = n;
  s.cols = d;
  for (std::int64_t r = 0; r < n; ++r) {
    for (std::int32_t c = static_cast<std::int32_t>(r % 3); c < d; c += 3) {
      s.indices.push_back(c);
      s.values.push_back(static_cast<float>(UniformUnit(rng)));
    }
    s.offsets.push_back(s.nnz());
  }
  const double epsilon = 7.0;  // m = 3 dimensions a user
  Result<NodeFeatures> from_sparse = PerturbFeatures(NodeFeatures::Sparse(s), FeatureMechanism::kMultiBit, epsilon, 8);
  Result<NodeFeatures> from_dense =
      PerturbFeatures(NodeFeatures::Dense(ToDense(s)), FeatureMechanism::kMultiBit, epsilon, 8);
  REQUIRE(from_sparse.ok());
  REQUIRE(from_dense.ok());
  REQUIRE(from_sparse->is_factored());
  CHECK(from_sparse->factored().sparse.nnz() == 3 * n);
  CHECK(from_sparse->ToDense() == from_dense->ToDense());
  MultiBitParams params;
  params.dims = static_cast<std::uint32_t>(d);
  params.epsilon = epsilon;
  Result<MultiBitEncoder> encoder = MultiBitEncoder::Create(params);
  Result<MultiBitRectifier> rectifier = MultiBitRectifier::Create(params);
  REQUIRE(encoder.ok());
  REQUIRE(rectifier.ok());
  const Matrix x = ToDense(s), got = from_sparse->ToDense();
  std::vector<EncodedFeature> encoded;
  std::vector<double> row(static_cast<std::size_t>(d)), estimate;
  for (Eigen::Index i = 0; i < n; ++i) {
    for (Eigen::Index j = 0; j < d; ++j) row[static_cast<std::size_t>(j)] = x(i, j);
    SeededRandomSource user(MixSeed(8, static_cast<std::uint64_t>(i)));
    REQUIRE(encoder->Encode(row, user, &encoded).ok());
    REQUIRE(rectifier->Rectify(encoded, &estimate).ok());
    for (Eigen::Index j = 0; j < d; ++j) {
      REQUIRE(got(i, j) == doctest::Approx(estimate[static_cast<std::size_t>(j)]).epsilon(1e-6));
    }
  }
  // Estimates are not perturbed again.
  CHECK_FALSE(PerturbFeatures(*from_sparse, FeatureMechanism::kMultiBit, epsilon, 8).ok());
}

TEST_CASE("PackedKProp.HoldsTheFactoredValuesAndLearnsAsThey") {
  // Packed inputs: every value the factored inputs' nearest bfloat16, and a
  // node model through them scores and learns as through the factored ones
  // up to that rounding, with a kept product taken as the factored route
  // takes its own. On the plain loops where the CPU has no AMX tiles.
  SeededRandomSource rng(29);
  const std::uint32_t n = 301;  // odd: the last pair half empty
  const CsrGraph graph = RandomGraph(n, rng);
  const PreparedGraph mean = PrepareGraph(graph, Aggregation::kMean);
  const NodeFeatures reports = NodeFeatures::Factored(Reports(n, 37, 2, 25.0f, rng));
  for (bool rectified : {false, true}) {
    for (int steps : {1, 3}) {
      CAPTURE(rectified);
      CAPTURE(steps);
      PropagatedInputs plain(reports, mean, rectified), packing(reports, mean, rectified, {}, std::int64_t{1} << 40);
      const NodeFeatures& x = plain.At(steps);
      const NodeFeatures& packed = packing.At(steps);
      REQUIRE(packed.is_factored());
      if (!PackedProductsFast()) {
        CHECK(packed.factored().packed == nullptr);  // PropagatedInputs packs only onto tiles
        continue;
      }
      REQUIRE(packed.factored().packed != nullptr);
      const PackedRows& z = *packed.factored().packed;
      const Matrix want = x.ToDense();
      for (Eigen::Index r = 0; r < want.rows(); ++r) {
        for (Eigen::Index c = 0; c < want.cols(); ++c) {
          REQUIRE(std::abs(z.At(r, c) - want(r, c)) <= std::abs(want(r, c)) * (1.0f / 256) + 1e-4f);
        }
      }
      CHECK(MaxRelativeGap(packed.ToDense(), want) < 1e-4f);  // the factored form is kept as it was
      NodeGnnConfig c;
      c.kind = NodeGnnKind::kGcn;
      c.input_dim = 37;
      c.classes = 3;
      Result<NodeGnnModel> model = NodeGnnModel::Create(c, 4);
      REQUIRE(model.ok());
      const PreparedGraph prepared = PrepareGraph(graph, Aggregation::kGcn);
      auto pass = [&](const NodeFeatures& in, PropagatedProductCache* cache, std::vector<Matrix>* grads) {
        for (Parameter* p : model->Parameters()) p->ZeroGrad();
        SeededRandomSource dropout(3);
        Tape tape(true, &dropout);
        const Tape::Var out = model->Forward(tape, prepared, in, nullptr, cache);
        const Matrix g = Matrix::Constant(n, 3, 0.01f);
        tape.Backward(tape.Dot(out, &g));
        grads->clear();
        for (Parameter* p : model->Parameters()) grads->push_back(p->grad);
        return Matrix(tape.value(out));
      };
      std::vector<Matrix> factored_grads, packed_grads, taken_grads;
      const Matrix factored_scores = pass(x, nullptr, &factored_grads);
      const Matrix packed_scores = pass(packed, nullptr, &packed_grads);
      // bfloat16 inputs and weights: 3 significant digits.
      CHECK(MaxRelativeGap(packed_scores, factored_scores) < 2e-2f);
      for (std::size_t i = 0; i < factored_grads.size(); ++i) {
        CHECK(MaxRelativeGap(packed_grads[i], factored_grads[i]) < 2e-2f);
      }
      PropagatedProductCache cache;
      {
        Tape tape(false, nullptr);
        model->Forward(tape, prepared, packed, nullptr, &cache);
      }
      REQUIRE(cache.slot(0).input == &packed.factored());
      CHECK(pass(packed, &cache, &taken_grads) == packed_scores);
      CHECK(cache.slot(0).input == nullptr);
      for (std::size_t i = 0; i < taken_grads.size(); ++i) CHECK(taken_grads[i] == packed_grads[i]);
    }
  }
}
