// Training end to end on tiny data: GIN fits a small dataset, the same seed
// gives the same numbers, model files round-trip exactly.
#include "train/graph_trainer.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <numeric>
#include <unistd.h>

#include "dataset/generators.h"
#include "ldpgraph/samplers.h"
#include "store/model_file.h"
#include "train/early_stopping.h"
#include "train/lpgnn_pipeline.h"
#include "train/node_trainer.h"

using namespace ldpgraph;

namespace {

struct Tiny {
  GraphDataset ds;
  std::vector<PreparedGraph> graphs;
  std::vector<int> labels;
};

Tiny TinyDataset() {
  SeededRandomSource rng(5);
  SyntheticSpec spec;
  spec.graphs = 40;
  spec.min_nodes = 20;
  spec.max_nodes = 30;
  Tiny t;
  t.ds = SyntheticCommunities(spec, rng);
  for (const auto& g : t.ds.graphs) t.graphs.push_back(PrepareGraph(g, Aggregation::kSumWithSelf));
  t.labels.assign(t.ds.labels.begin(), t.ds.labels.end());
  return t;
}

GinConfig SmallGin() {
  GinConfig c;
  c.hidden = 16;
  c.layers = 4;
  c.dropout = 0.0f;
  return c;
}

GraphTrainResult Train(const Tiny& t, GinModel* model, const Split& split) {
  GraphTrainOptions o;
  o.max_epochs = 80;
  o.early_stopping = false;
  o.batch_size = 8;
  o.seed = 3;
  return TrainGraphClassifier(model, t.graphs, t.ds.labels, split, o, {});
}

std::string TempPath(const char* name) {
  return std::string("/tmp/ldpgraph_training_test_") + std::to_string(::getpid()) + "_" + name;
}

// A GIN as a model file holds it.
AnyModel AsAnyModel(GinModel gin) {
  AnyModel m;
  m.kind = ModelKind::kGin;
  m.gin = std::make_unique<GinModel>(std::move(gin));
  return m;
}

// `model` saved to a file, loaded back; the file is removed.
AnyModel SavedAndLoaded(const AnyModel& model, const char* name) {
  const std::string path = TempPath(name);
  REQUIRE(SaveModel(model, path).ok());
  Result<AnyModel> loaded = LoadModel(path);
  std::remove(path.c_str());
  REQUIRE_MESSAGE(loaded.ok(), loaded.status().ToString());
  return std::move(loaded).value();
}

// Two blocks of `size` users (edges inside with probability `inside`,
// across with `across`); feature j of a user in block j is raised by `hint`
// over uniform noise, so the features hint weakly at the block.
struct TwoBlocks {
  CsrGraph graph;
  Matrix features;
  std::vector<int> blocks;
};

TwoBlocks MakeTwoBlocks(std::uint32_t size, double inside, double across, int dims, float hint,
                        SeededRandomSource& rng) {
  TwoBlocks b{StochasticBlockModel({size, size}, {{inside, across}, {across, inside}}, rng),
              Matrix(2 * size, dims), std::vector<int>(2 * size)};
  for (std::uint32_t v = 0; v < 2 * size; ++v) {
    b.blocks[v] = v < size ? 0 : 1;
    for (int j = 0; j < dims; ++j) {
      b.features(v, j) = static_cast<float>(UniformUnit(rng)) + (j == b.blocks[v] ? hint : 0.0f);
    }
  }
  return b;
}

// Two blocks whose labels are kept 75% of the time (randomized response at
// epsilon ln 3 with 2 classes), with LPGNN's inputs over their true features.
struct NoisyTwoBlocks {
  TwoBlocks b;
  std::vector<int> noisy;
  NodeFeatures features;

  LpgnnInputs Inputs() const {  // points into this
    LpgnnInputs in;
    in.graph = &b.graph;
    in.features = &features;
    in.labels = &noisy;
    in.label_epsilon = std::log(3.0);
    in.split = StratifiedSplit(noisy, 0.5, 0.25, 2);
    in.rectified_features = false;
    return in;
  }
};

NoisyTwoBlocks MakeNoisyTwoBlocks(std::uint32_t size, double inside, double across, SeededRandomSource& rng) {
  NoisyTwoBlocks n{MakeTwoBlocks(size, inside, across, 3, 0.4f, rng), {}, {}};
  n.noisy = n.b.blocks;
  for (int& y : n.noisy) y = UniformUnit(rng) < 0.75 ? y : 1 - y;
  n.features = NodeFeatures::Dense(n.b.features);
  return n;
}

// A GraphSAGE model (the default kind) of the given shape.
NodeGnnModel SageModel(int input_dim, int classes, std::uint64_t seed) {
  NodeGnnConfig c;
  c.input_dim = input_dim;
  c.classes = classes;
  Result<NodeGnnModel> model = NodeGnnModel::Create(c, seed);
  REQUIRE(model.ok());
  return std::move(model).value();
}

}  // namespace

TEST_CASE("Training.GinFitsATinyDatasetCompletely") {
  Tiny t = TinyDataset();
  auto model = GinModel::Create(SmallGin(), 1);
  REQUIRE(model.ok());
  Split split = StratifiedSplit(t.labels, 0.75, 0.10, 1);
  Train(t, &*model, split);
  Evaluation train = EvaluateGraphs(&*model, t.graphs, t.ds.labels, split.train, 16);
  CHECK(train.accuracy == 1.0);
}

TEST_CASE("Training.SameSeedSameNumbers") {
  Tiny t = TinyDataset();
  Split split = StratifiedSplit(t.labels, 0.75, 0.10, 2);
  auto a = GinModel::Create(SmallGin(), 9);
  auto b = GinModel::Create(SmallGin(), 9);
  GraphTrainResult ra = Train(t, &*a, split);
  GraphTrainResult rb = Train(t, &*b, split);
  CHECK(ra.best_epoch == rb.best_epoch);
  CHECK(ra.test.loss == rb.test.loss);
  CHECK((ra.test.probs.array() == rb.test.probs.array()).all());
}

TEST_CASE("ModelFile.GinRoundTripPredictsIdentically") {
  Tiny t = TinyDataset();
  auto model = GinModel::Create(SmallGin(), 4);
  Split split = StratifiedSplit(t.labels, 0.75, 0.10, 4);
  Train(t, &*model, split);
  const AnyModel saved = AsAnyModel(std::move(model).value());
  const AnyModel loaded = SavedAndLoaded(saved, "gin.bin");
  REQUIRE(loaded.kind == ModelKind::kGin);
  Evaluation before = EvaluateGraphs(saved.gin.get(), t.graphs, t.ds.labels, split.test, 16);
  Evaluation after = EvaluateGraphs(loaded.gin.get(), t.graphs, t.ds.labels, split.test, 16);
  CHECK((before.probs.array() == after.probs.array()).all());
}

TEST_CASE("GinInputs.SizeInputIsLnOfTheNumberOfUsers") {
  GinConfig c;
  REQUIRE(SetGinNodeInput("size", &c).ok());
  CHECK(c.degree_cap == 0);
  CHECK(c.size_input);
  CHECK(c.input_dim == 2);
  REQUIRE(SetGinNodeInput("degree+size", &c).ok());
  CHECK(c.input_dim == 129);
  REQUIRE(SetGinNodeInput("constant", &c).ok());
  CHECK(c.input_dim == 1);
  CHECK_FALSE(c.size_input);
  CHECK(SetGinNodeInput("sizes", &c).code() == StatusCode::kInvalidArgument);
  // Every node of a 30-node graph: 1 and ln 30; with degrees, the one-hot first.
  const CsrGraph ring = CsrGraph::FromUndirectedEdges(30, {{0, 1}, {1, 2}});
  PreparedGraph p = PrepareGraph(ring, Aggregation::kSumWithSelf, 0, true);
  REQUIRE(p.inputs.cols() == 2);
  CHECK(p.inputs(7, 0) == 1.0f);
  CHECK(p.inputs(7, 1) == doctest::Approx(std::log(30.0)));
  PreparedGraph d = PrepareGraph(ring, Aggregation::kSumWithSelf, 4, true);
  REQUIRE(d.inputs.cols() == 6);
  CHECK(d.inputs(1, 2) == 1.0f);  // degree 2
  CHECK(d.inputs(1, 5) == doctest::Approx(std::log(30.0)));
  // A model's input width must match what the config asks for.
  GinConfig wrong = SmallGin();
  wrong.size_input = true;
  CHECK(GinModel::Create(wrong, 1).status().code() == StatusCode::kInvalidArgument);
}

TEST_CASE("Aggregation.EachUserSumsHerOwnList") {
  // Reports are directed: user 0 listed 1, 2 and 3; user 1 listed 0; users
  // 2 and 3 listed nobody. With a constant input, GIN's first sum must be
  // each user's reported degree + 1 (ALGORITHMS.md section 2, (A + I) h),
  // the degree DPRR preserves, not the number of users who listed her.
  const CsrGraph reports = CsrGraph::FromRows({{1, 2, 3}, {0}, {}, {}});
  const PreparedGraph gin = PrepareGraph(reports, Aggregation::kSumWithSelf);
  Matrix sums;
  SpMM(gin.agg, gin.inputs, &sums);
  CHECK(sums(0, 0) == 4.0f);
  CHECK(sums(1, 0) == 2.0f);
  CHECK(sums(2, 0) == 1.0f);
  CHECK(sums(3, 0) == 1.0f);
  // The mean (GraphSAGE) and the normalised sums read the same lists.
  Matrix x(4, 1);
  x << 0.0f, 8.0f, 2.0f, 5.0f;
  const PreparedGraph mean = PrepareGraph(reports, Aggregation::kMean);
  Matrix means;
  SpMM(mean.agg, x, &means);
  CHECK(means(0, 0) == doctest::Approx(5.0f));  // (8 + 2 + 5) / 3
  CHECK(means(1, 0) == doctest::Approx(0.0f));
  CHECK(means(2, 0) == 0.0f);                   // nobody listed: nothing to average
  const PreparedGraph gcn = PrepareGraph(reports, Aggregation::kGcn);
  Matrix normalised;
  SpMM(gcn.agg, x, &normalised);
  // D = list length + 1: node 1 has 2, node 0 has 4.
  CHECK(normalised(1, 0) == doctest::Approx(8.0f / 2.0f + 0.0f / std::sqrt(2.0f * 4.0f)));
}

TEST_CASE("ModelFile.GinSizeInputSurvivesTheRoundTrip") {
  GinConfig c = SmallGin();
  REQUIRE(SetGinNodeInput("size", &c).ok());
  auto model = GinModel::Create(c, 4);
  REQUIRE(model.ok());
  const AnyModel loaded = SavedAndLoaded(AsAnyModel(std::move(model).value()), "gin_size.bin");
  CHECK(loaded.gin->config().size_input);
  CHECK(loaded.gin->config().mean_readout);
  CHECK(loaded.gin->config().input_dim == 2);
}

TEST_CASE("ModelFile.NodeModelRoundTripAndCorruption") {
  AnyModel saved;
  saved.kind = ModelKind::kSage;
  saved.node = std::make_unique<NodeGnnModel>(SageModel(5, 3, 2));
  const std::string path = TempPath("sage.bin");
  REQUIRE(SaveModel(saved, path).ok());
  auto loaded = LoadModel(path);
  REQUIRE(loaded.ok());
  auto a = saved.node->Parameters(), b = loaded->node->Parameters();
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) CHECK((a[i]->value.array() == b[i]->value.array()).all());
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(40);
    f.put('\x55');
  }
  CHECK(LoadModel(path).status().code() == StatusCode::kDataLoss);
  CHECK(LoadModel("/nonexistent/model.bin").status().code() == StatusCode::kUnavailable);
  std::remove(path.c_str());
}

TEST_CASE("ModelFile.NodeModelKeepsItsPredictionsBitExact") {
  // A model trained on a denoised graph serves the probabilities it made.
  AnyModel saved;
  saved.kind = ModelKind::kGcn;
  NodeGnnConfig c;
  c.kind = NodeGnnKind::kGcn;
  c.input_dim = 5;
  c.hidden = 3;
  c.classes = 2;
  saved.node = std::make_unique<NodeGnnModel>(NodeGnnModel::Create(c, 1).value());
  saved.node_probabilities = Matrix::Random(7, 2);
  const std::string path = TempPath("gcn.bin");
  REQUIRE(SaveModel(saved, path).ok());
  auto loaded = LoadModel(path);
  REQUIRE(loaded.ok());
  CHECK(loaded->kind == ModelKind::kGcn);
  CHECK(loaded->node->config().selu);  // bit 0 read apart from bit 1
  REQUIRE(loaded->node_probabilities.rows() == 7);
  CHECK((loaded->node_probabilities.array() == saved.node_probabilities.array()).all());
  // Without predictions the flag stays clear and nothing follows the weights.
  saved.node_probabilities.resize(0, 0);
  REQUIRE(SaveModel(saved, path).ok());
  loaded = LoadModel(path);
  REQUIRE(loaded.ok());
  CHECK(loaded->node_probabilities.size() == 0);
  std::remove(path.c_str());
}

TEST_CASE("Lpgnn.RectifiedInputsAreStandardisedAndTrueOnesKept") {
  // A path 0-1-2: one KProp step averages the neighbours; rectified inputs
  // then get mean 0 and standard deviation 1 per column (a constant column
  // is only centred), true inputs stay as propagated.
  const CsrGraph path = CsrGraph::FromRows({{1}, {0, 2}, {1}});
  Matrix x(3, 2);
  x << 1000, 5, -1000, 5, 3000, 5;
  const NodeFeatures features = NodeFeatures::Dense(x);
  const Matrix kept = NodeModelInputs(path, features, 1, false).dense();
  CHECK(kept(0, 0) == doctest::Approx(-1000));
  CHECK(kept(1, 0) == doctest::Approx(2000));
  CHECK(kept(2, 0) == doctest::Approx(-1000));
  const Matrix z = NodeModelInputs(path, features, 1, true).dense();
  CHECK(z.col(0).mean() == doctest::Approx(0).epsilon(1e-6));
  CHECK(z.col(0).squaredNorm() / 3 == doctest::Approx(1));
  CHECK(z(1, 0) > 0);
  CHECK(z.col(1).cwiseAbs().maxCoeff() == doctest::Approx(0));
}

TEST_CASE("Lpgnn.PropagatedInputsStepByStepEqualThoseMadeAfresh") {
  SeededRandomSource rng(9);
  const TwoBlocks b = MakeTwoBlocks(40, 0.2, 0.02, 6, 0.3f, rng);
  SparseMatrix sparse;
  sparse.rows = b.features.rows();
  sparse.cols = b.features.cols();
  for (Eigen::Index r = 0; r < b.features.rows(); ++r) {  // every other entry: a sparse copy
    for (Eigen::Index c = r % 2; c < b.features.cols(); c += 2) {
      sparse.indices.push_back(static_cast<std::int32_t>(c));
      sparse.values.push_back(b.features(r, c));
    }
    sparse.offsets.push_back(sparse.nnz());
  }
  const PreparedGraph mean = PrepareGraph(b.graph, Aggregation::kMean);
  for (const NodeFeatures& features : {NodeFeatures::Dense(b.features), NodeFeatures::Sparse(sparse)}) {
    for (bool rectified : {false, true}) {
      PropagatedInputs inputs(features, mean, rectified);
      for (int steps : {0, 2, 3, 3, 8}) {
        const NodeFeatures& got = inputs.At(steps);
        const NodeFeatures fresh = NodeModelInputs(b.graph, features, steps, rectified);
        CAPTURE(features.is_sparse());
        CAPTURE(rectified);
        CAPTURE(steps);
        REQUIRE(got.is_sparse() == fresh.is_sparse());
        CHECK(got.is_sparse() == (features.is_sparse() && steps == 0 && !rectified));  // sparse until propagated
        CHECK(got.ToDense() == fresh.ToDense());
      }
    }
  }
}

TEST_CASE("Training.SageLearnsCommunitiesFromFeatures") {
  // Two blocks; features carry a noisy hint of the block; labels = block.
  SeededRandomSource rng(6);
  const TwoBlocks b = MakeTwoBlocks(100, 0.08, 0.005, 4, 0.3f, rng);
  const CsrGraph& g = b.graph;
  const NodeFeatures x = NodeFeatures::Dense(b.features);
  const std::vector<int>& labels = b.blocks;
  NodeGnnConfig c;
  c.input_dim = 4;
  c.classes = 2;
  auto model = NodeGnnModel::Create(c, 3);
  PreparedGraph prepared = PrepareGraph(g, AggregationFor(c.kind));
  Split split = StratifiedSplit(labels, 0.5, 0.25, 3);
  NodeTrainOptions o;
  o.max_epochs = 150;
  NodeTrainResult r = TrainNodeClassifier(&*model, prepared, x, labels, split, o, {});
  CHECK(r.test.accuracy > 0.9);  // the graph turns a weak feature hint into a clear signal
}

TEST_CASE("EarlyStopping.KeepsTheBestScoreWithTiesBrokenAndStopsAfterPatience") {
  // Scores as the node trainer passes them when selecting on accuracy:
  // minus the validation accuracy, the validation loss breaking ties.
  NodeGnnModel model = SageModel(3, 2, 1);
  Parameter* first = model.Parameters().front();
  EarlyStopping<NodeGnnModel> stopping(&model, /*from=*/0, /*patience=*/2, /*enabled=*/true);
  auto epoch = [&](int e, double score, double tie_break) {
    first->value.setConstant(static_cast<float>(e));  // marks whose parameters these are
    return stopping.Update(e, score, tie_break);
  };
  CHECK_FALSE(epoch(1, -0.5, 1.0));
  CHECK_FALSE(epoch(2, -0.5, 0.8));  // same accuracy, lower loss: better
  CHECK_FALSE(epoch(3, -0.4, 0.1));  // lower accuracy: worse, whatever the loss
  CHECK(epoch(4, -0.5, 0.9));        // a tie that loses the tie-break; patience is out
  CHECK(stopping.best_epoch() == 2);
  stopping.RestoreBest();
  CHECK(first->value(0, 0) == 2.0f);
}

TEST_CASE("Lpgnn.DropTriesOnlyTheLabelStepsOffered") {
  // Noisy labels on two blocks. Drop chooses kx with its fewest label steps
  // offered, then the other label steps: never a ky it was not offered (a
  // fixed --ky 4 means 4), and an empty choice is refused.
  SeededRandomSource rng(8);
  const NoisyTwoBlocks b = MakeNoisyTwoBlocks(60, 0.1, 0.01, rng);
  const LpgnnInputs in = b.Inputs();
  LpgnnOptions o;
  o.label_method = LabelMethod::kDrop;
  o.kx_choices = {0, 2};
  o.train.max_epochs = 60;
  for (const std::vector<int>& ky : {std::vector<int>{4}, std::vector<int>{4, 2}}) {
    o.ky_choices = ky;
    Result<LpgnnRun> run = TrainLpgnn(in, o);
    REQUIRE_MESSAGE(run.ok(), run.status().ToString());
    CHECK(std::find(ky.begin(), ky.end(), run->ky) != ky.end());
    CHECK((run->kx == 0 || run->kx == 2));
    CHECK(run->val_accuracy > 0.5);
  }
  o.ky_choices.clear();
  CHECK(TrainLpgnn(in, o).status().code() == StatusCode::kInvalidArgument);
}

TEST_CASE("Lpgnn.ValidationReferenceStopsBeforePropagationNamesOneClass") {
  // Randomized labels on two blocks. Well separated, the longest label
  // KProp offered is the reference; well mixed, 16 steps give every node
  // one class, and a shorter one that keeps both is taken instead.
  for (const bool mixed : {false, true}) {
    CAPTURE(mixed);
    SeededRandomSource rng(9);
    const NoisyTwoBlocks b = MakeNoisyTwoBlocks(300, 0.05, mixed ? 0.03 : 0.001, rng);
    const LpgnnInputs in = b.Inputs();
    LpgnnOptions o;
    o.label_method = LabelMethod::kCrossEntropy;
    o.kx_choices = {0};
    o.train.max_epochs = 2;
    o.validation_reference = ValidationReference::kNoisy;
    CHECK(TrainLpgnn(in, o)->reference_steps == 0);  // the labels as they are
    o.validation_reference = ValidationReference::kPropagated;
    Result<LpgnnRun> run = TrainLpgnn(in, o);
    REQUIRE_MESSAGE(run.ok(), run.status().ToString());
    if (mixed) {
      CHECK(run->reference_steps > 0);
      CHECK(run->reference_steps < 16);
    } else {
      CHECK(run->reference_steps == 16);
    }
    // Estimated: on blocks this far apart a propagation beats the raw labels.
    o.validation_reference = ValidationReference::kEstimated;
    if (!mixed) CHECK(TrainLpgnn(in, o)->reference_steps > 0);
  }
}

TEST_CASE("Lpgnn.DropCanLeaveTheValidationLabelsOutOfItsTargets") {
  // The validation users' labels flipped: with propagate_validation_labels
  // false Drop's label KProp never reads them, so the model and its test
  // accuracy stay the same to the bit; with it true (LPGNN's protocol) they
  // reach the training targets and the model changes.
  SeededRandomSource rng(10);
  const NoisyTwoBlocks b = MakeNoisyTwoBlocks(150, 0.08, 0.01, rng);
  NoisyTwoBlocks flipped = b;
  const LpgnnInputs in = b.Inputs();
  for (std::uint32_t v : in.split.val) flipped.noisy[v] = 1 - flipped.noisy[v];
  LpgnnInputs in_flipped = flipped.Inputs();
  in_flipped.split = in.split;
  LpgnnOptions o;
  o.label_method = LabelMethod::kDrop;
  o.kx_choices = {0};
  o.ky_choices = {2};
  o.validation_reference = ValidationReference::kNoisy;
  o.prior_candidate = false;  // the flipped labels may favour it: the weights are the point here
  o.train.max_epochs = 1;  // one step, kept: validation cannot choose another epoch
  for (const bool spread : {false, true}) {
    CAPTURE(spread);
    o.propagate_validation_labels = spread;
    Result<LpgnnRun> a = TrainLpgnn(in, o);
    Result<LpgnnRun> c = TrainLpgnn(in_flipped, o);
    REQUIRE((a.ok() && c.ok()));
    const Matrix wa = a->model->Parameters().front()->value, wc = c->model->Parameters().front()->value;
    CHECK((wa == wc) == !spread);
  }
}

TEST_CASE("Splits.StratifiedAndSeeded") {
  std::vector<int> labels;
  for (int i = 0; i < 100; ++i) labels.push_back(i < 80 ? 0 : 1);
  labels.push_back(-1);
  Split a = StratifiedSplit(labels, 0.5, 0.25, 7), b = StratifiedSplit(labels, 0.5, 0.25, 7);
  CHECK(a.train == b.train);
  CHECK(a.train.size() == 50u);  // 40 + 10
  CHECK(a.val.size() == 25u);    // 20 + 5
  CHECK(a.test.size() == 25u);
  int ones = 0;
  for (auto i : a.train) ones += labels[i] == 1;
  CHECK(ones == 10);
}

TEST_CASE("Metrics.AucAndAccuracy") {
  Matrix probs(4, 2);
  probs << 0.9f, 0.1f, 0.2f, 0.8f, 0.6f, 0.4f, 0.3f, 0.7f;
  std::vector<int> labels = {0, 1, 1, 0};
  std::vector<std::uint32_t> rows = {0, 1, 2, 3};
  CHECK(Accuracy(probs, labels, rows) == doctest::Approx(0.5));
  // positives 0.8, 0.4 vs negatives 0.1, 0.7: 3 of the 4 pairs are ordered right
  CHECK(RocAuc(probs, labels, rows) == doctest::Approx(0.75));
}

TEST_CASE("Lpgnn.TheClassPriorIsServedWhenNoTrainedModelValidatesAboveIt") {
  // No edges, features that are pure noise, labels 70% one class and then
  // randomized (epsilon ln 3: kept with Pr 3/4). Nothing beats saying the
  // majority class to everyone; a model left at its random start (no step:
  // whatever dropout draws, it validates as it started) says noise.
  SeededRandomSource rng(12);
  const std::uint32_t n = 800;
  const CsrGraph graph = CsrGraph::FromRows(std::vector<std::vector<std::uint32_t>>(n));
  Matrix noise(n, 100);  // centred and wide: a random start's answers vary from node to node
  for (Eigen::Index i = 0; i < noise.size(); ++i) noise(i) = static_cast<float>(6 * UniformUnit(rng) - 3);
  const NodeFeatures features = NodeFeatures::Dense(noise);
  std::vector<int> truth(n), noisy(n);
  for (std::uint32_t v = 0; v < n; ++v) {
    truth[v] = UniformUnit(rng) < 0.7 ? 1 : 0;
    noisy[v] = UniformUnit(rng) < 0.75 ? truth[v] : 1 - truth[v];
  }
  LpgnnInputs in;
  in.graph = &graph;
  in.features = &features;
  in.labels = &noisy;
  in.test_labels = &truth;
  in.label_epsilon = std::log(3.0);
  in.split = StratifiedSplit(noisy, 0.5, 0.25, 4);
  in.rectified_features = false;
  LpgnnOptions o;
  o.train.max_epochs = 1;
  o.train.lr = 0;
  Result<LpgnnRun> run = TrainLpgnn(in, o);
  REQUIRE_MESSAGE(run.ok(), run.status().ToString());
  INFO("validated " << run->val_accuracy << ", tested " << run->test_accuracy);
  REQUIRE(run->prior);
  CHECK(run->kx == 0);
  double majority = 0;
  for (std::uint32_t t : in.split.test) majority += truth[t] == 1;
  majority /= static_cast<double>(in.split.test.size());
  CHECK(run->test_accuracy == doctest::Approx(majority));
  // The model itself says the estimated prior (0.7 / 0.3 about) to every node.
  const PreparedGraph prepared = PrepareGraph(graph, AggregationFor(run->model->config().kind));
  std::vector<std::uint32_t> all(n);
  std::iota(all.begin(), all.end(), 0u);
  const Matrix probs = EvaluateNodes(run->model.get(), prepared, features, truth, all).probs;
  CHECK(probs(0, 1) == doctest::Approx(0.7).epsilon(0.1));
  CHECK((probs.rowwise() - probs.row(0)).cwiseAbs().maxCoeff() < 1e-6f);
  // Not offered, a trained model is returned, validating below the prior.
  o.prior_candidate = false;
  Result<LpgnnRun> trained = TrainLpgnn(in, o);
  REQUIRE(trained.ok());
  CHECK_FALSE(trained->prior);
  CHECK(trained->val_accuracy < run->val_accuracy);
}
