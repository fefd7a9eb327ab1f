// GW over a dataset (gw/): graph spaces from a dataset, the pairwise matrix
// against single solves, the folds, and the kernel SVM and k-NN on
// distances that separate the classes.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>

#include "gw/graph_folds.h"
#include "gw/gw_clustering.h"
#include "gw/graph_space.h"
#include "gw/kernel_svm.h"
#include "gw/pairwise_gw.h"
#include "ldpgraph/samplers.h"
#include "support/graph_fixtures.h"
#include "support/temp_dir.h"

using namespace ldpgraph;

namespace {

// Paths and stars of several sizes, tagged: two classes GW tells apart.
GraphDataset PathsAndStars() { return ldpgraph::testing::PathsAndStars(12, true); }

}  // namespace

TEST_CASE("GraphSpace.AdjacencyShortestPathsTagsAndEmbeddings") {
  const GraphDataset ds = PathsAndStars();
  Result<std::vector<GraphSpace>> a = GraphSpaces(ds, GwStructure::kAdjacency);
  Result<std::vector<GraphSpace>> sp = GraphSpaces(ds, GwStructure::kShortestPath);
  REQUIRE(a.ok());
  REQUIRE(sp.ok());
  CHECK((*a)[0].structure(0, 1) == 1);
  CHECK((*a)[0].structure(0, 2) == 0);
  CHECK((*sp)[0].structure(0, 4) == 4);  // the path's two ends
  CHECK((*sp)[1].structure(1, 2) == 2);  // two leaves of the star
  REQUIRE((*a)[0].features.cols() == 2);  // tags 3 and 7, one-hot
  CHECK((*a)[0].features(0, 1) == 1);
  CHECK((*a)[0].features(1, 0) == 1);
  Eigen::MatrixXd h(3, 2);
  h << 0, 0, 3, 4, 0, 1;
  const GraphSpace e = EmbeddingSpace(h);
  CHECK(e.structure(0, 1) == doctest::Approx(5));
  CHECK(e.structure(2, 1) == doctest::Approx(std::sqrt(18.0)));
  CHECK(e.structure(1, 1) == 0);
  CHECK(FeatureCost(h, h)(0, 1) == doctest::Approx(25));
  CHECK(ParseGwStructure("geodesic").status().code() == StatusCode::kInvalidArgument);
  GraphDataset empty = ds;
  empty.graphs[3] = CsrGraph::FromRows({});
  CHECK(GraphSpaces(empty, GwStructure::kAdjacency).status().message().find("graph 3") != std::string::npos);
}

TEST_CASE("PairwiseGw.IsSymmetricAndEqualsSingleSolves") {
  const GraphDataset ds = PathsAndStars();
  const std::vector<GraphSpace> spaces = GraphSpaces(ds, GwStructure::kShortestPath).value();
  PairwiseGwOptions o;
  o.threads = 3;
  std::size_t last_done = 0, reports = 0;
  o.progress = [&](std::size_t done, std::size_t total) {
    CHECK(total == 66);
    last_done = done;
    ++reports;
  };
  Result<Eigen::MatrixXd> d = PairwiseGw(spaces, o);
  REQUIRE(d.ok());
  CHECK(reports >= 1);
  CHECK(last_done == 66);
  CHECK((*d - d->transpose()).cwiseAbs().maxCoeff() == 0);
  CHECK(d->diagonal().cwiseAbs().maxCoeff() == 0);
  const double single = GromovWasserstein(spaces[2].structure, spaces[5].structure,
                                          FeatureCost(spaces[2].features, spaces[5].features), 0.5, o.gw)
                            ->value;
  CHECK((*d)(2, 5) == single);
  // A path is nearer the other paths than the stars.
  CHECK((*d)(0, 4) < (*d)(0, 1));
  std::vector<GraphSpace> mixed = spaces;
  mixed[3].features.resize(0, 0);
  CHECK(PairwiseGw(mixed, o).status().code() == StatusCode::kInvalidArgument);
  o.threads = 0;
  CHECK(PairwiseGw(spaces, o).status().code() == StatusCode::kInvalidArgument);
}

TEST_CASE("GraphFolds.ReadsTheGinFoldsAndRefusesBadOnes") {
  testing::TempDir dir;
  for (int k = 1; k <= 10; ++k) {
    dir.Write("train_idx-" + std::to_string(k) + ".txt", "0\n1\n2\n");
    dir.Write("test_idx-" + std::to_string(k) + ".txt", std::to_string(k % 4) + "\n");
  }
  Result<std::vector<GraphFold>> folds = ReadGraphFolds(dir.path(), 4);
  REQUIRE(folds.ok());
  CHECK(folds->size() == 10);
  CHECK((*folds)[2].test == std::vector<std::uint32_t>{3});
  CHECK(ReadGraphFolds(dir.path(), 3).status().message().find("test_idx-3.txt:1") != std::string::npos);
  dir.Write("test_idx-4.txt", "x\n");
  CHECK(ReadGraphFolds(dir.path(), 4).status().code() == StatusCode::kInvalidArgument);
  testing::TempDir none;
  CHECK(ReadGraphFolds(none.path(), 4).value().empty());
  const std::vector<std::uint32_t> labels = {0, 0, 0, 0, 1, 1, 1, 1, 1, 1};
  const std::vector<GraphFold> strat = StratifiedGraphFolds(labels, 2, 1);
  CHECK(strat[0].test.size() + strat[1].test.size() == 10);
  CHECK(strat[0].train.size() == strat[1].test.size());
}

TEST_CASE("KernelSvm.SeparatesClassesTheDistancesSeparate") {
  // Two clusters on a line, distances |x_i - x_j|; the SVM and k-NN find them.
  const int n = 40;
  Eigen::MatrixXd d(n, n);
  std::vector<std::uint32_t> labels;
  std::vector<double> x;
  for (int i = 0; i < n; ++i) {
    labels.push_back(i % 2);
    x.push_back((i % 2) * 10.0 + (i % 7) * 0.3);
  }
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) d(i, j) = std::fabs(x[static_cast<std::size_t>(i)] - x[static_cast<std::size_t>(j)]);
  std::vector<std::uint32_t> train, test;
  for (std::uint32_t i = 0; i < n; ++i) (i < 30 ? train : test).push_back(i);
  Result<SvmFit> fit = FitKernelSvm(d, labels, train, test, SvmGrid::Paper(), 5, 0);
  REQUIRE(fit.ok());
  CHECK(fit->test_accuracy == 1.0);
  CHECK(fit->validation_accuracy == 1.0);
  CHECK(KnnAccuracy(d, labels, train, test, 5) == 1.0);
  CHECK(FitKernelSvm(d, labels, {}, test, SvmGrid::Paper(), 5, 0).status().code() == StatusCode::kInvalidArgument);
  CHECK(FitKernelSvm(d, labels, train, {40}, SvmGrid::Paper(), 5, 0).status().code() == StatusCode::kInvalidArgument);
  CHECK(FitKernelSvm(d, labels, {0, 1}, test, SvmGrid::Paper(), 5, 0).status().code() == StatusCode::kInvalidArgument);
  CHECK(FitKernelSvm(d, labels, train, test, SvmGrid::Paper(), 5, 0, 0).status().code() == StatusCode::kInvalidArgument);
}

TEST_CASE("KernelSvm.ChoosesTheSameOnAnyNumberOfThreads") {
  // Overlapping classes, so that the grid's points differ and tie: the
  // choice must be the first best in grid order, however the threads run.
  SeededRandomSource rng(9);
  const int n = 60;
  std::vector<std::uint32_t> labels;
  std::vector<double> x;
  for (int i = 0; i < n; ++i) {
    labels.push_back(i % 2);
    x.push_back((i % 2) * 1.0 + 1.5 * UniformUnit(rng));
  }
  Eigen::MatrixXd d(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) d(i, j) = std::fabs(x[static_cast<std::size_t>(i)] - x[static_cast<std::size_t>(j)]);
  std::vector<std::uint32_t> train, test;
  for (std::uint32_t i = 0; i < n; ++i) (i < 45 ? train : test).push_back(i);
  Result<SvmFit> one = FitKernelSvm(d, labels, train, test, SvmGrid::Paper(), 5, 3, 1);
  // Progress: every grid point once, counted up one call at a time.
  std::vector<std::size_t> seen;
  std::size_t said_total = 0;
  Result<SvmFit> two = FitKernelSvm(d, labels, train, test, SvmGrid::Paper(), 5, 3, 2,
                                    [&](std::size_t done, std::size_t total) {
                                      seen.push_back(done);
                                      said_total = total;
                                    });
  REQUIRE(one.ok());
  REQUIRE(two.ok());
  CHECK(said_total == 15 * 21);
  REQUIRE(seen.size() == said_total);
  for (std::size_t i = 0; i < seen.size(); ++i) CHECK(seen[i] == i + 1);
  CHECK(one->validation_accuracy < 1.0);
  CHECK(one->c == two->c);
  CHECK(one->gamma == two->gamma);
  CHECK(one->validation_accuracy == two->validation_accuracy);
  CHECK(one->test_accuracy == two->test_accuracy);
}

TEST_CASE("GwClustering.RecoversSeparatedGroupsAndScoresPartitions") {
  // Three groups on a line, far apart: distances |x_i - x_j|.
  SeededRandomSource rng(4);
  std::vector<double> x;
  std::vector<int> truth;
  for (int i = 0; i < 60; ++i) {
    truth.push_back(i % 3);
    x.push_back(10.0 * (i % 3) + UniformUnit(rng));
  }
  Eigen::MatrixXd d(60, 60);
  for (int i = 0; i < 60; ++i) {
    for (int j = 0; j < 60; ++j) d(i, j) = std::fabs(x[static_cast<std::size_t>(i)] - x[static_cast<std::size_t>(j)]);
  }
  for (auto* method : {&SpectralClusters, &KMedoidClusters}) {
    auto c = (*method)(d, 3, 1);
    REQUIRE(c.ok());
    CHECK(NormalizedMutualInformation(*c, truth) == doctest::Approx(1.0));
    CHECK(AdjustedRandIndex(*c, truth) == doctest::Approx(1.0));
    CHECK(*c == *(*method)(d, 3, 1));  // deterministic for a seed
  }
  // Scores: renamed clusters are the same partition; crossed ones share nothing.
  CHECK(NormalizedMutualInformation({0, 0, 1, 1}, {5, 5, 2, 2}) == doctest::Approx(1.0));
  CHECK(NormalizedMutualInformation({0, 0, 1, 1}, {0, 1, 0, 1}) == doctest::Approx(0.0));
  CHECK(AdjustedRandIndex({0, 0, 1, 1}, {0, 1, 0, 1}) == doctest::Approx(-0.5));
  std::vector<int> a, b;
  for (int i = 0; i < 4000; ++i) {
    a.push_back(static_cast<int>(UniformBelow(rng, 3)));
    b.push_back(static_cast<int>(UniformBelow(rng, 3)));
  }
  CHECK(std::fabs(AdjustedRandIndex(a, b)) < 0.02);
  CHECK(NormalizedMutualInformation(a, b) < 0.01);
}

TEST_CASE("GwClustering.RefusesBadDistancesAndK") {
  Eigen::MatrixXd d = Eigen::MatrixXd::Zero(4, 4);
  CHECK(SpectralClusters(d, 0, 1).status().code() == StatusCode::kInvalidArgument);
  CHECK(KMedoidClusters(d, 5, 1).status().code() == StatusCode::kInvalidArgument);
  d(1, 2) = std::nan("");
  CHECK(SpectralClusters(d, 2, 1).status().code() == StatusCode::kInvalidArgument);
  d(1, 2) = -1;
  CHECK(KMedoidClusters(d, 2, 1).status().code() == StatusCode::kInvalidArgument);
  CHECK(KMedoidClusters(Eigen::MatrixXd::Zero(3, 4), 2, 1).status().code() == StatusCode::kInvalidArgument);
}
