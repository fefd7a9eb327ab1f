// GAP's parts: the multi-hop aggregation computes its formula with unit
// rows, the degree bound keeps a symmetric subgraph within the bound, and
// GAP-EDP and GAP-NDP train to the epsilon they were asked for and refuse
// bad requests.
#include "gap/gap_pipeline.h"
#include "gap/progap_pipeline.h"

#include <doctest/doctest.h>

#include <cmath>
#include <fstream>

#include "dataset/generators.h"
#include "gap/aggregation.h"
#include "ldpgraph/samplers.h"
#include "store/model_file.h"
#include "support/temp_dir.h"
#include "train/dp_sgd.h"

using namespace ldpgraph;

TEST_CASE("Gap.AggregationWithoutNoiseIsNormalisedSums") {
  // A directed path 0 -> 1 -> 2 and 2 -> 0: row v of A^T X sums the rows of the nodes listing v.
  const CsrGraph g = CsrGraph::FromRows({{1}, {2}, {0}});
  Matrix x0(3, 2);
  x0 << 1, 0, 0, 1, 0.6f, 0.8f;
  SeededRandomSource rng(1);
  Result<std::vector<Matrix>> agg = PrivateMultiHopAggregation(g, x0, 2, 0.0, rng);
  REQUIRE(agg.ok());
  REQUIRE(agg->size() == 3u);
  CHECK(((*agg)[0] - x0).norm() == 0);
  Matrix expected(3, 2);
  expected << 0.6f, 0.8f, 1, 0, 0, 1;  // node 0 is listed by 2, node 1 by 0, node 2 by 1
  CHECK(((*agg)[1] - expected).norm() < 1e-6f);
  CHECK(!IsSymmetric(g));
  CHECK(IsSymmetric(CsrGraph::FromUndirectedEdges(3, {{0, 1}, {1, 2}})));

  CHECK_FALSE(PrivateMultiHopAggregation(g, x0, 0, 0.0, rng).ok());
  CHECK_FALSE(PrivateMultiHopAggregation(g, x0, 1, -1.0, rng).ok());
  CHECK_FALSE(PrivateMultiHopAggregation(g, Matrix(2, 2), 1, 0.0, rng).ok());
}

TEST_CASE("Gap.NoisyAggregatesHaveUnitRowsAndTheirNoise") {
  SeededRandomSource rng(2);
  const CsrGraph g = ErdosRenyi(4000, 0.002, rng);
  Matrix x0 = Matrix::Ones(4000, 4);
  NormaliseRows(&x0);
  // One hop's noise alone: the clean aggregate subtracted before normalising is not
  // observable, so compare the noisy first hop with the clean one row by row.
  Result<std::vector<Matrix>> clean = PrivateMultiHopAggregation(g, x0, 1, 0.0, rng);
  Result<std::vector<Matrix>> noisy = PrivateMultiHopAggregation(g, x0, 1, 3.0, rng);
  REQUIRE(clean.ok());
  REQUIRE(noisy.ok());
  double mean_cos = 0;
  for (Eigen::Index r = 0; r < 4000; ++r) {
    CHECK((*noisy)[1].row(r).norm() == doctest::Approx(1).epsilon(1e-5));
    mean_cos += (*noisy)[1].row(r).dot((*clean)[1].row(r)) / 4000;
  }
  // Mean degree 8: signal norm about 8 against noise norm about 3 * 2 = 6.
  CHECK(mean_cos > 0.5);
  CHECK(mean_cos < 0.95);
}

TEST_CASE("Gap.DegreeBoundKeepsASymmetricSubgraph") {
  SeededRandomSource rng(3);
  const CsrGraph g = BarabasiAlbert(2000, 4, rng);  // hubs far above the bound
  const CsrGraph bounded = BoundDegree(g, 10, rng);
  CHECK(IsSymmetric(bounded));
  std::uint64_t kept = 0;
  for (std::uint32_t v = 0; v < bounded.num_nodes(); ++v) {
    CHECK(bounded.degree(v) <= 10u);
    for (std::uint32_t u : bounded.neighbours(v)) {
      const auto row = g.neighbours(v);
      CHECK(std::binary_search(row.begin(), row.end(), u));  // only edges of g
      ++kept;
    }
  }
  CHECK(kept > g.num_entries() / 2);  // most edges of a BA graph with m = 4 survive a bound of 10
  const CsrGraph loose = BoundDegree(g, 100000, rng);
  CHECK(loose.targets() == g.targets());
}

namespace {

// Three homophilous communities with bag-of-words features; `signal`: how
// much the words say of the class.
struct Communities {
  GraphDataset ds;
  NodeFeatures features;
  std::vector<int> labels;
  GapInputs in;

  explicit Communities(double signal = 0.15) {
    SeededRandomSource rng(4);
    NodeDatasetSpec spec;
    spec.nodes = 1200;
    spec.classes = 3;
    spec.mean_degree = 8;
    spec.homophily = 0.9;
    spec.features = 60;
    spec.words = 5;
    spec.signal = signal;
    ds = SyntheticNodeDataset(spec, rng);
    features = NodeFeatures::Sparse(ds.node_features);
    labels.assign(ds.node_labels.begin(), ds.node_labels.end());
    in.graph = &ds.graphs[0];
    in.features = &features;
    in.labels = &labels;
    in.classes = 3;
    in.split = StratifiedSplit(labels, 0.5, 0.25, 1);
  }
};

}  // namespace

TEST_CASE("Gap.EdgeLevelTrainsToItsEpsilonAndRefusesBadRequests") {
  Communities c;
  const GapInputs& in = c.in;
  const GraphDataset& ds = c.ds;
  SeededRandomSource noise(7);
  GapOptions o;
  o.encoder_epochs = o.classifier_epochs = 60;
  o.noise = &noise;
  Result<GapRun> open = TrainGap(in, o);
  REQUIRE_MESSAGE(open.ok(), open.status().ToString());
  CHECK(open->noise_stddev == 0);
  CHECK(open->test_accuracy > 0.85);  // homophilous communities: the aggregates carry the class
  o.epsilon = 2;
  Result<GapRun> priv = TrainGap(in, o);
  REQUIRE(priv.ok());
  CHECK(priv->epsilon <= 2);
  CHECK(priv->epsilon >= 0.99 * 2);
  CHECK(priv->delta == doctest::Approx(1 / (10 * ds.graphs[0].num_entries() / 2.0)));
  CHECK(priv->sensitivity > std::sqrt(2.0));  // an undirected edge, plus the grid's rounding
  CHECK(priv->noise_stddev == doctest::Approx(priv->noise_multiplier * priv->sensitivity));
  // The words say little here: what GAP learns beyond chance comes through
  // the aggregates, and more of it as the noise falls.
  o.epsilon = 8;
  Result<GapRun> looser = TrainGap(in, o);
  REQUIRE(looser.ok());
  INFO("GAP-EDP at epsilon 2: " << priv->test_accuracy << ", at 8: " << looser->test_accuracy);
  CHECK(priv->test_accuracy > 1.0 / 3 + 0.05);
  CHECK(looser->test_accuracy > priv->test_accuracy + 0.05);

  for (double bad : {0.0, -1.0, std::nan("")}) {
    o.epsilon = bad;
    CHECK(TrainGap(in, o).status().code() == StatusCode::kInvalidArgument);
  }
  o.epsilon = 1;
  o.delta = 1.5;
  CHECK(TrainGap(in, o).status().code() == StatusCode::kInvalidArgument);
  o.delta = 0;
  o.model.hops = 0;
  CHECK(TrainGap(in, o).status().code() == StatusCode::kInvalidArgument);
}

TEST_CASE("Gap.NodeLevelTrainsToItsEpsilonAndRefusesBadRequests") {
  // Words that carry the class: DP-SGD's encoder has something to learn at
  // a moderate epsilon (at node level the aggregates of a sparse graph are
  // mostly noise, so the features must carry it).
  Communities c(0.5);
  SeededRandomSource noise(9);
  GapOptions o;
  o.privacy = GapPrivacy::kNode;
  o.max_degree = 5;
  o.batch_size = 200;
  o.encoder_epochs = o.classifier_epochs = 60;
  o.noise = &noise;
  Result<GapRun> open = TrainGap(c.in, o);  // no noise, but the degree bound
  REQUIRE_MESSAGE(open.ok(), open.status().ToString());
  CHECK(open->noise_stddev == 0);
  CHECK(open->dp_sgd_steps == 0);
  CHECK(open->test_accuracy > 0.9);
  o.encoder_epochs = o.classifier_epochs = 20;
  o.epsilon = 8;
  Result<GapRun> priv = TrainGap(c.in, o);
  REQUIRE_MESSAGE(priv.ok(), priv.status().ToString());
  CHECK(priv->privacy == GapPrivacy::kNode);
  CHECK(priv->max_degree == 5);
  CHECK(priv->epsilon <= 8);
  CHECK(priv->epsilon >= 0.99 * 8);
  CHECK(priv->delta == doctest::Approx(1 / (10 * 1200.0)));
  CHECK(priv->sensitivity > std::sqrt(5.0));  // D unit rows, plus the grid's rounding
  CHECK(priv->sensitivity < std::sqrt(5.0) + 1e-4);
  CHECK(priv->dp_sgd_steps == 2 * DpSgdSteps(20, 200.0 / c.in.split.train.size()));
  CHECK(priv->noise_stddev == doctest::Approx(priv->noise_multiplier * priv->sensitivity));
  CHECK(priv->test_accuracy > 1.0 / 3 + 0.3);  // 0.81 measured
  CHECK(priv->test_accuracy < open->test_accuracy);
  // The DP-SGD MLP alone, with the whole budget.
  Result<PrivateMlpRun> mlp = TrainPrivateMlp(c.in, o);
  REQUIRE(mlp.ok());
  CHECK(mlp->test_accuracy > 1.0 / 3 + 0.3);
  CHECK(mlp->epsilon == o.epsilon);
  CHECK(mlp->delta > 0);
  CHECK(mlp->probabilities.rows() == static_cast<Eigen::Index>(c.in.graph->num_nodes()));

  GapOptions bad = o;
  bad.max_degree = 0;
  CHECK(TrainGap(c.in, bad).status().code() == StatusCode::kInvalidArgument);
  bad = o;
  bad.batch_size = -1;
  CHECK(TrainGap(c.in, bad).status().code() == StatusCode::kInvalidArgument);
  bad.batch_size = static_cast<int>(c.in.split.train.size()) + 1;
  CHECK(TrainGap(c.in, bad).status().code() == StatusCode::kInvalidArgument);
  bad = o;
  bad.clip_norm = std::nan("");
  CHECK(TrainGap(c.in, bad).status().code() == StatusCode::kInvalidArgument);
  const CsrGraph directed = CsrGraph::FromRows(std::vector<std::vector<std::uint32_t>>(1200, {0}));
  GapInputs one_way = c.in;
  one_way.graph = &directed;
  CHECK(TrainGap(one_way, o).status().code() == StatusCode::kInvalidArgument);
}

TEST_CASE("ProGap.StagesLearnTheGraphAndSpendExactlyTheirBudget") {
  Communities c;
  SeededRandomSource noise(9);
  GapOptions o;
  o.encoder_epochs = 60;
  o.noise = &noise;
  Result<ProGapRun> open = TrainProGap(c.in, o);
  REQUIRE_MESSAGE(open.ok(), open.status().ToString());
  CHECK(open->stages == 3);
  CHECK(open->noise_stddev == 0);
  // The words say little: the stages after the first learn the class from the aggregates.
  INFO("ProGAP without noise: " << open->test_accuracy << ", its first stage alone " << open->mlp_test_accuracy);
  CHECK(open->test_accuracy > 0.85);
  CHECK(open->test_accuracy > open->mlp_test_accuracy + 0.2);
  REQUIRE(open->stage_test_accuracy.size() == 3u);
  CHECK(open->test_accuracy == open->stage_test_accuracy.back());
  CHECK(open->mlp_test_accuracy == open->stage_test_accuracy.front());
  CHECK(open->probabilities.rows() == static_cast<Eigen::Index>(c.in.graph->num_nodes()));
  for (GapPrivacy level : {GapPrivacy::kEdge, GapPrivacy::kNode}) {
    CAPTURE(static_cast<int>(level));
    o.privacy = level;
    o.epsilon = 4;
    o.encoder_epochs = 5;
    Result<ProGapRun> priv = TrainProGap(c.in, o);
    REQUIRE_MESSAGE(priv.ok(), priv.status().ToString());
    CHECK(priv->epsilon <= 4);
    CHECK(priv->epsilon >= 0.99 * 4);
    CHECK(priv->noise_stddev == doctest::Approx(priv->noise_multiplier * priv->sensitivity));
    // Node level: stage 0 trains as GAP's encoder, the two later stages as its classifier (5 epochs).
    const double q = static_cast<double>(std::min<std::size_t>(512, c.in.split.train.size())) /
                     static_cast<double>(c.in.split.train.size());
    CHECK(priv->dp_sgd_steps == (level == GapPrivacy::kNode ? DpSgdSteps(5, q) + 2 * DpSgdSteps(5, q) : 0));
    o.epsilon = 0;
    CHECK(TrainProGap(c.in, o).status().code() == StatusCode::kInvalidArgument);
  }
}

TEST_CASE("Gap.ResidualClassifierStartsFromItsEncoder") {
  Communities c(0.5);
  SeededRandomSource noise(5);
  GapOptions o;
  o.epsilon = 2;
  o.encoder_epochs = 60;
  o.classifier_epochs = 1;  // one step: the classifier has barely moved
  o.noise = &noise;
  o.residual = GapResidual::kOn;
  Result<GapRun> residual = TrainGap(c.in, o);
  REQUIRE(residual.ok());
  CHECK(residual->residual);
  CHECK(std::fabs(residual->test_accuracy - residual->mlp_test_accuracy) <= 0.02);
  o.residual = GapResidual::kOff;  // the paper's: from scratch
  Result<GapRun> plain = TrainGap(c.in, o);
  REQUIRE(plain.ok());
  CHECK_FALSE(plain->residual);
  CHECK(plain->test_accuracy < plain->mlp_test_accuracy - 0.1);
  // Automatic at edge level: both trained, the better on validation kept.
  o.residual = GapResidual::kAuto;
  Result<GapRun> chosen = TrainGap(c.in, o);
  REQUIRE(chosen.ok());
  CHECK(chosen->residual);
  CHECK(chosen->val_accuracy >= plain->val_accuracy);
}

TEST_CASE("Gap.ModelFileKeepsTheReleaseItsGuaranteeAndPredictions") {
  Communities c(0.5);
  SeededRandomSource noise(3);
  GapOptions o;
  o.privacy = GapPrivacy::kNode;
  o.epsilon = 4;
  o.max_degree = 6;
  o.batch_size = 100;
  o.encoder_epochs = o.classifier_epochs = 3;
  o.noise = &noise;
  Result<GapRun> run = TrainGap(c.in, o);
  REQUIRE(run.ok());
  AnyModel saved;
  saved.kind = ModelKind::kGap;
  saved.gap = std::move(run->model);
  testing::TempDir dir;
  const std::string path = dir.path() + "/gap.bin";
  REQUIRE(SaveModel(saved, path).ok());
  Result<AnyModel> loaded = LoadModel(path);
  REQUIRE_MESSAGE(loaded.ok(), loaded.status().ToString());
  REQUIRE(loaded->kind == ModelKind::kGap);
  const GapModel& a = *saved.gap;
  const GapModel& b = *loaded->gap;
  CHECK(b.privacy.level == GapPrivacy::kNode);
  CHECK(b.privacy.epsilon == run->epsilon);
  CHECK(b.privacy.delta == run->delta);
  CHECK(b.privacy.noise_multiplier == run->noise_multiplier);
  CHECK(b.privacy.noise_stddev == run->noise_stddev);
  CHECK(b.privacy.sensitivity == run->sensitivity);
  CHECK(b.privacy.max_degree == 6);
  CHECK(b.residual == run->residual);
  CHECK(b.node_probabilities.rows() == 1200);
  CHECK((a.node_probabilities.array() == b.node_probabilities.array()).all());
  CHECK(Accuracy(b.node_probabilities, c.labels, c.in.split.test) == run->test_accuracy);
  auto pa = saved.gap->encoder.Parameters(), pb = loaded->gap->encoder.Parameters();
  for (Parameter* p : saved.gap->encoder_head.Parameters()) pa.push_back(p);
  for (Parameter* p : loaded->gap->encoder_head.Parameters()) pb.push_back(p);
  auto ca = saved.gap->classifier.Parameters(), cb = loaded->gap->classifier.Parameters();
  pa.insert(pa.end(), ca.begin(), ca.end());
  pb.insert(pb.end(), cb.begin(), cb.end());
  REQUIRE(pa.size() == pb.size());
  for (std::size_t i = 0; i < pa.size(); ++i) CHECK((pa[i]->value.array() == pb[i]->value.array()).all());
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(60);
    f.put('\x55');
  }
  CHECK(LoadModel(path).status().code() == StatusCode::kDataLoss);
}

TEST_CASE("ProGap.ModelFileKeepsItsStagesGuaranteeAndPredictions") {
  Communities c(0.5);
  for (GapPrivacy level : {GapPrivacy::kEdge, GapPrivacy::kNode}) {
    CAPTURE(static_cast<int>(level));
    SeededRandomSource noise(3);
    GapOptions o;
    o.privacy = level;
    o.epsilon = 4;
    o.max_degree = 6;
    o.batch_size = 100;
    o.encoder_epochs = 3;
    o.noise = &noise;
    Result<ProGapRun> run = TrainProGap(c.in, o);
    REQUIRE_MESSAGE(run.ok(), run.status().ToString());
    AnyModel saved;
    saved.kind = ModelKind::kGap;
    saved.gap = std::move(run->model);
    REQUIRE(saved.gap->progressive());
    CHECK(saved.gap->residual == (level == GapPrivacy::kNode));  // DP-SGD's stages add to the stage before's
    testing::TempDir dir;
    const std::string path = dir.path() + "/progap.bin";
    REQUIRE(SaveModel(saved, path).ok());
    Result<AnyModel> loaded = LoadModel(path);
    REQUIRE_MESSAGE(loaded.ok(), loaded.status().ToString());
    GapModel& a = *saved.gap;
    GapModel& b = *loaded->gap;
    REQUIRE(b.stages.size() == 3u);
    CHECK(b.residual == a.residual);
    CHECK(b.privacy.level == level);
    CHECK(b.privacy.epsilon == run->epsilon);
    CHECK(b.privacy.noise_stddev == run->noise_stddev);
    CHECK((a.node_probabilities.array() == b.node_probabilities.array()).all());
    CHECK(Accuracy(b.node_probabilities, c.labels, c.in.split.test) == run->test_accuracy);
    for (std::size_t k = 0; k < 3; ++k) {
      const ProGapStageConfig &x = a.stages[k].config(), &y = b.stages[k].config();
      CHECK(x.input_dim == y.input_dim);
      CHECK(x.earlier_stages == y.earlier_stages);
      CHECK(x.dropout == y.dropout);
      CHECK(x.normalise == y.normalise);
      auto pa = a.stages[k].Parameters(), pb = b.stages[k].Parameters();
      REQUIRE(pa.size() == pb.size());
      for (std::size_t i = 0; i < pa.size(); ++i) CHECK((pa[i]->value.array() == pb[i]->value.array()).all());
    }
  }
}
