// GW-LDP's server side on embeddings (gw/): the rectification of encoded
// embeddings, GW on them, the classification pipeline (its refusals, end to
// end, fold by fold) and experiment gw's resumption.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "experiments/gw_experiment.h"
#include "gw/graph_space.h"
#include "gw/gromov_wasserstein.h"
#include "gw/gw_classification.h"
#include "gw/private_embedding.h"
#include "support/graph_fixtures.h"
#include "support/temp_dir.h"

using namespace ldpgraph;

using ldpgraph::testing::PathsAndStars;
using ldpgraph::testing::TempDir;

TEST_CASE("PrivateEmbedding.RectifiedEstimateIsUnbiased") {
  Eigen::MatrixXd h(3, 2);
  h << 0.9, 0.1, 0.2, 0.8, 0.5, 0.5;
  SeededRandomSource rng(5);
  const int runs = 20000;
  Eigen::MatrixXd sum = Eigen::MatrixXd::Zero(3, 2), sq = sum;
  for (int r = 0; r < runs; ++r) {
    auto x = PrivateEmbedding(h, 6.0, rng);
    REQUIRE(x.ok());
    sum += *x;
    sq += x->cwiseProduct(*x);
  }
  const Eigen::MatrixXd mean = sum / runs;
  const Eigen::MatrixXd se = ((sq / runs - mean.cwiseProduct(mean)) / runs).cwiseSqrt();
  for (Eigen::Index i = 0; i < h.size(); ++i) {
    INFO("entry " << i << ": mean " << mean(i) << ", true " << h(i) << ", se " << se(i));
    CHECK(std::fabs(mean(i) - h(i)) < 5 * se(i));
  }
}

TEST_CASE("PrivateEmbedding.RectifyRefusesMalformedRows") {
  EmbeddingParams p;
  p.nodes = 2;
  p.dims = 3;
  p.epsilon = 1;
  std::vector<std::vector<EncodedFeature>> rows = {{{0, 1}}, {{2, -1}}};
  auto ok = RectifyEmbedding(p, rows);
  REQUIRE(ok.ok());
  CHECK(ok->rows() == 2);
  CHECK(RectifyEmbedding(p, {{{0, 1}}}).status().code() == StatusCode::kInvalidArgument);
  rows[1] = {{3, 1}};  // index out of range
  const Status bad = RectifyEmbedding(p, rows).status();
  CHECK(bad.code() == StatusCode::kInvalidArgument);
  CHECK(bad.message().find("node 1") != std::string::npos);
  Eigen::MatrixXd out_of_range = Eigen::MatrixXd::Constant(2, 2, 1.5);
  SeededRandomSource rng(1);
  CHECK(PrivateEmbedding(out_of_range, 1.0, rng).status().code() == StatusCode::kOutOfRange);
}

TEST_CASE("GwClassification.RefusesEpsilonWithoutEmbeddingsAndBadNames") {
  GraphDataset ds = PathsAndStars(12);
  std::vector<GraphFold> folds = StratifiedGraphFolds(ds.labels, 3, 0);
  GwClassificationOptions o;
  o.epsilon = 1;
  CHECK(ClassifyByGw(ds, folds, o).status().code() == StatusCode::kInvalidArgument);
  o.epsilon = std::nan("");
  o.embeddings = "gin";
  CHECK(ClassifyByGw(ds, folds, o).status().code() == StatusCode::kInvalidArgument);
  o.epsilon = 0;
  o.embeddings = "spectral";
  CHECK(ClassifyByGw(ds, folds, o).status().code() == StatusCode::kInvalidArgument);
  CHECK(ClassifyByGw(ds, {}, GwClassificationOptions()).status().code() == StatusCode::kInvalidArgument);
}

TEST_CASE("GwClassification.LdpGinEmbeddingsEndToEnd") {
  GraphDataset ds = PathsAndStars(40);
  std::vector<GraphFold> folds = StratifiedGraphFolds(ds.labels, 4, 0);
  folds.resize(2);
  GwClassificationOptions o;
  o.embeddings = "gin";
  o.epsilon = 50;
  o.federated.rounds = 20;
  o.federated.clients = 3;
  o.inner_folds = 3;
  auto r = ClassifyByGw(ds, folds, o);
  REQUIRE(r.ok());
  REQUIRE(r->folds.size() == 2);
  REQUIRE(r->distances.size() == 2);  // one matrix per fold
  for (const Eigen::MatrixXd& d : r->distances) {
    CHECK(d.rows() == 40);
    CHECK((d - d.transpose()).cwiseAbs().maxCoeff() < 1e-12);
    CHECK(d.minCoeff() >= 0);
  }
  for (const GwFoldResult& f : r->folds) {
    CHECK(f.model_accuracy >= 0);
    CHECK(f.svm_accuracy >= 0);
    CHECK(f.svm_accuracy <= 1);
  }
}

// The diagnostic option: the embedding model also learns the test graphs'
// labels. Training graphs are paths (class 0) and stars (class 1); test
// graphs are cycles (class 1) and cliques (class 0), which a model that saw
// only paths and stars takes for their look-alikes (every degree 2 for a
// path, high degrees for a star) and gets wrong.
TEST_CASE("GwClassification.TrainOnTestGraphsLeaksTestLabels") {
  GraphDataset ds;
  GraphFold fold;
  auto add = [&](std::uint32_t n, int shape, int label) {
    std::vector<std::vector<std::uint32_t>> rows(n);
    auto link = [&](std::uint32_t u, std::uint32_t v) {
      rows[u].push_back(v);
      rows[v].push_back(u);
    };
    for (std::uint32_t u = 1; u < n; ++u) {
      if (shape == 0 || shape == 2) link(u - 1, u);  // path; cycle
      if (shape == 1) link(0, u);                    // star
      if (shape == 3) {
        for (std::uint32_t v = 0; v < u; ++v) link(v, u);  // clique
      }
    }
    if (shape == 2) link(n - 1, 0);
    for (auto& r : rows) std::sort(r.begin(), r.end());
    (shape < 2 ? fold.train : fold.test).push_back(static_cast<std::uint32_t>(ds.graphs.size()));
    ds.graphs.push_back(CsrGraph::FromRows(rows));
    ds.raw_labels.push_back(label);
  };
  for (std::uint32_t n = 5; n < 15; ++n) {
    add(n, 0, 0);
    add(n, 1, 1);
    add(n, 2, 1);
    add(n, 3, 0);
  }
  MapLabels(&ds);
  GwClassificationOptions o;
  o.embeddings = "gin";
  o.federated.clients = 1;
  o.federated.rounds = 40;
  o.inner_folds = 2;
  auto honest = ClassifyByGw(ds, {fold}, o);
  o.train_on_test_graphs = true;
  auto leaky = ClassifyByGw(ds, {fold}, o);
  REQUIRE(honest.ok());
  REQUIRE(leaky.ok());
  const double honest_accuracy = honest->folds[0].model_accuracy, leaky_accuracy = leaky->folds[0].model_accuracy;
  CAPTURE(honest_accuracy);
  CAPTURE(leaky_accuracy);
  CHECK(honest_accuracy <= 0.5);
  CHECK(leaky_accuracy >= 0.9);
}

TEST_CASE("GwClassification.ResumedFoldByFoldGivesTheSameNumbers") {
  // What experiment gw relies on to resume a run cut short: a fold left
  // out is not computed, and a fold computed alone equals its twin in a
  // whole run (its seeds are its own). Blind embeddings: LDP-encoded per
  // fold like GIN's, without the training.
  GraphDataset ds = PathsAndStars(12);
  const std::vector<GraphFold> folds = StratifiedGraphFolds(ds.labels, 3, 0);
  for (const char* method : {"adjacency", "blind"}) {
    INFO(method);
    GwClassificationOptions o;
    o.embeddings = method;
    o.epsilon = std::string(method) == "blind" ? 5 : 0;
    o.inner_folds = 2;
    o.svm_grid.c = {1, 100};  // small: this test runs under valgrind too
    o.svm_grid.gamma = {0.5, 2};
    std::vector<std::size_t> scored;
    o.fold_scored = [&](std::size_t f, const GwFoldResult&) {
      scored.push_back(f);
      return Status::Ok();
    };
    auto whole = ClassifyByGw(ds, folds, o);
    REQUIRE(whole.ok());
    CHECK(scored == std::vector<std::size_t>{0, 1, 2});
    scored.clear();
    o.skip_fold = [](std::size_t f) { return f != 1; };
    auto resumed = ClassifyByGw(ds, folds, o);
    REQUIRE(resumed.ok());
    CHECK(scored == std::vector<std::size_t>{1});
    const GwFoldResult &a = whole->folds[1], &b = resumed->folds[1];
    CHECK(a.svm_accuracy == b.svm_accuracy);
    CHECK(a.c == b.c);
    CHECK(a.gamma == b.gamma);
    CHECK(a.knn_accuracy == b.knn_accuracy);
    CHECK(a.spectral_nmi == b.spectral_nmi);
    CHECK(a.kmedoids_nmi == b.kmedoids_nmi);
    CHECK(resumed->folds[0].svm_seconds == 0);  // never scored
    if (std::string(method) == "blind") {
      REQUIRE(resumed->distances.size() == 3);
      CHECK(resumed->distances[0].size() == 0);
      CHECK(resumed->distances[1] == whole->distances[1]);
    }
    // A fold that cannot be recorded ends the run with the reason.
    o.fold_scored = [](std::size_t, const GwFoldResult&) { return Status::Unavailable("disk full"); };
    CHECK(ClassifyByGw(ds, folds, o).status().code() == StatusCode::kUnavailable);
  }
}

TEST_CASE("GwExperiment.ResumesARunCutShortFoldByFold") {
  // A run recorded whole, then the same run cut short after 4 of its 10
  // folds and resumed: the rerun computes only the 6 missing folds, and
  // every row equals the whole run's (seconds aside).
  TempDir dir;
  GraphDataset ds = PathsAndStars(20);
  ds.name = "paths";
  const std::string path = dir.path() + "/paths.txt";
  REQUIRE(WriteDataset(ds, path).ok());
  GwExperimentOptions o;
  o.methods = {"adjacency"};  // one matrix: cheap (folds of embeddings: the test above)
  o.epsilons = {INFINITY};
  o.classification.inner_folds = 2;
  o.classification.svm_grid.c = {1, 100};  // small: this test runs under valgrind too
  o.classification.svm_grid.gamma = {0.5, 2};
  o.out_dir = dir.path() + "/whole";
  REQUIRE(RunGwExperiment(path, ds, o).ok());
  auto lines = [](const std::string& file) {
    std::ifstream in(file);
    std::vector<std::string> out;
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
  };
  const std::vector<std::string> whole = lines(o.out_dir + "/results.csv");
  REQUIRE(whole.size() == 11);  // the header and 10 folds
  o.out_dir = dir.path() + "/cut";
  std::filesystem::create_directories(o.out_dir);
  {
    std::ofstream cut(o.out_dir + "/results.csv");
    for (std::size_t i = 0; i < 5; ++i) cut << whole[i] << "\n";
  }
  REQUIRE(RunGwExperiment(path, ds, o).ok());
  const std::vector<std::string> resumed = lines(o.out_dir + "/results.csv");
  REQUIRE(resumed.size() == whole.size());
  auto without_seconds = [](const std::string& row) { return row.substr(0, row.rfind(',')); };
  for (std::size_t i = 0; i < whole.size(); ++i) {
    INFO("row " << i);
    CHECK(without_seconds(resumed[i]) == without_seconds(whole[i]));
  }
}

TEST_CASE("GromovWasserstein.EndsOnLdpEncodedEmbeddings") {
  // Rectified LDP embeddings at a small epsilon: distances in the
  // hundreds, drawn from a few values, so many swaps tie. The local moves
  // once took a swap and its undoing both for gains (an absolute threshold
  // below the rounding of such values) and never ended.
  SeededRandomSource rng(9);
  const GwOptions o = GwOptions::ProductStartOnly();  // ldpgraph gw's default
  for (int pair = 0; pair < 300; ++pair) {
    const int n = 12 + pair % 8;
    auto a = PrivateEmbedding(Eigen::MatrixXd::Constant(n, 2, 0.5), 0.1, rng);
    auto b = PrivateEmbedding(Eigen::MatrixXd::Constant(n, 2, 0.5), 0.1, rng);
    REQUIRE(a.ok());
    REQUIRE(b.ok());
    const GraphSpace x = EmbeddingSpace(*a), y = EmbeddingSpace(*b);
    auto r = GromovWasserstein(x.structure, y.structure, FeatureCost(x.features, y.features), 0.5, o);
    REQUIRE(r.ok());
    CHECK(r->value >= 0);
    CHECK(std::isfinite(r->value));
  }
}
