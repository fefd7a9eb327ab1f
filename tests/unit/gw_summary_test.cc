// GW-LDP's summary encoder on the server (gw/private_summary.h): the prior
// over cells recovered from the reports, each report's posterior mean,
// the exact point without LDP, and the classification pipeline with the
// summary encoder (its refusals, and its end to end run).
#include "gw/private_summary.h"

#include <doctest/doctest.h>

#include <cmath>

#include "gw/gw_classification.h"
#include "ldpgraph/samplers.h"
#include "support/graph_fixtures.h"

using namespace ldpgraph;

using ldpgraph::testing::PathsAndStars;

namespace {

GraphSummaryEncoder Encoder(double epsilon) {
  GraphSummaryParams p;
  p.value_bins = p.size_bins = 4;
  p.min_nodes = 2;
  p.max_nodes = 32;
  p.epsilon = epsilon;
  return *GraphSummaryEncoder::Create(p);
}

// `count` reports of graphs in cell 0 (70%) and cell 10 (30%), randomized.
std::vector<std::uint32_t> Reports(const GraphSummaryEncoder& enc, int count, std::uint64_t seed) {
  SeededRandomSource rng(seed);
  std::vector<std::uint32_t> reports;
  for (int g = 0; g < count; ++g) {
    const std::uint32_t cell = g % 10 < 7 ? 0 : 10;
    const bool keep = Bernoulli(rng, enc.keep_probability());
    auto other = static_cast<std::uint32_t>(UniformBelow(rng, 15));
    reports.push_back(keep ? cell : other >= cell ? other + 1 : other);
  }
  return reports;
}

}  // namespace

TEST_CASE("PrivateSummary.ThePriorIsRecoveredFromTheReports") {
  const GraphSummaryEncoder enc = Encoder(2.0);  // keeps a cell with Pr 0.33
  Result<std::vector<double>> prior = SummaryPrior(enc, Reports(enc, 40000, 3));
  REQUIRE(prior.ok());
  REQUIRE(prior->size() == 16u);
  CHECK((*prior)[0] == doctest::Approx(0.7).epsilon(0.05));
  CHECK((*prior)[10] == doctest::Approx(0.3).epsilon(0.1));
  double rest = 0, total = 0;
  for (std::size_t c = 0; c < 16; ++c) {
    total += (*prior)[c];
    if (c != 0 && c != 10) rest += (*prior)[c];
  }
  CHECK(total == doctest::Approx(1.0));
  CHECK(rest < 0.03);
}

TEST_CASE("PrivateSummary.ReportsArePulledTowardsWhereGraphsAre") {
  const GraphSummaryEncoder enc = Encoder(2.0);
  std::vector<std::uint32_t> reports = Reports(enc, 4000, 4);
  reports.push_back(0);
  reports.push_back(15);  // a cell no graph holds, far from those that do
  Result<Eigen::MatrixXd> points = DenoiseSummaries(enc, reports);
  REQUIRE(points.ok());
  REQUIRE(points->rows() == 4002);
  REQUIRE(points->cols() == 2);
  const std::vector<double> zero = enc.CellCentre(0), far = enc.CellCentre(15);
  const Eigen::RowVectorXd at_zero = points->row(4000), at_far = points->row(4001);
  // A report in the most held cell stays near it; one in an empty cell is
  // worth little and lands near the population's mean.
  CHECK(std::hypot(at_zero(0) - zero[0], at_zero(1) - zero[1]) < 0.15);
  const double mean = 0.7 * zero[0] + 0.3 * enc.CellCentre(10)[0];  // the same on both axes
  CHECK(std::hypot(at_far(0) - mean, at_far(1) - mean) < 0.5 * std::hypot(far[0] - mean, far[1] - mean));
  // With almost no noise each report is its cell's centre.
  const GraphSummaryEncoder sharp = Encoder(40.0);
  Result<Eigen::MatrixXd> exact = DenoiseSummaries(sharp, {0, 10, 10, 3});
  REQUIRE(exact.ok());
  CHECK((*exact)(1, 0) == doctest::Approx(sharp.CellCentre(10)[0]));
  CHECK((*exact)(1, 1) == doctest::Approx(sharp.CellCentre(10)[1]));

  CHECK(DenoiseSummaries(enc, {}).status().code() == StatusCode::kInvalidArgument);
  const Status out = DenoiseSummaries(enc, {1, 16}).status();
  CHECK(out.code() == StatusCode::kInvalidArgument);
  CHECK(out.message().find("graph 1") != std::string::npos);
}

TEST_CASE("PrivateSummary.TheExactPointIsTheMeanAndTheLogSize") {
  GraphSummaryParams p = Encoder(1.0).params();
  Eigen::MatrixXd h(4, 1);
  h << 0.1, 0.3, 0.5, 0.7;
  const Eigen::RowVectorXd x = ExactSummary(p, h);
  REQUIRE(x.size() == 2);
  CHECK(x(0) == doctest::Approx(0.4));
  CHECK(x(1) == doctest::Approx(0.25));  // log 4 on [log 2, log 32]
  const GraphSpace space = SummarySpace(x);
  CHECK(space.structure.rows() == 1);
  CHECK(space.features.cols() == 2);
}

TEST_CASE("GwClassification.SummaryEncoderEndToEndAndItsRefusals") {
  GraphDataset ds = PathsAndStars(40);
  std::vector<GraphFold> folds = StratifiedGraphFolds(ds.labels, 4, 0);
  folds.resize(2);
  GwClassificationOptions o;
  o.embeddings = "adjacency";
  o.encoder = "summary";
  CHECK(ClassifyByGw(ds, folds, o).status().code() == StatusCode::kInvalidArgument);  // nothing to summarise
  o.embeddings = "gin";
  o.encoder = "sketch";
  CHECK(ClassifyByGw(ds, folds, o).status().code() == StatusCode::kInvalidArgument);
  o.encoder = "multibit";
  o.summary_value_bins = 4;
  CHECK(ClassifyByGw(ds, folds, o).status().message().find("for the summary encoder") != std::string::npos);
  o.encoder = "summary";
  o.summary_value_bins = 65536;
  o.summary_size_bins = 2;
  CHECK(ClassifyByGw(ds, folds, o).status().message().find("65536") != std::string::npos);
  o.summary_value_bins = o.summary_size_bins = 0;
  o.summary_min_nodes = 9;
  o.summary_max_nodes = 3;
  CHECK(ClassifyByGw(ds, folds, o).status().code() == StatusCode::kInvalidArgument);

  o.summary_min_nodes = o.summary_max_nodes = 0;
  o.epsilon = 8;
  o.federated.rounds = 20;
  o.federated.clients = 3;
  o.inner_folds = 3;
  auto r = ClassifyByGw(ds, folds, o);
  REQUIRE_MESSAGE(r.ok(), r.status().ToString());
  REQUIRE(r->distances.size() == 2);
  for (const Eigen::MatrixXd& d : r->distances) {
    CHECK(d.rows() == 40);
    CHECK((d - d.transpose()).cwiseAbs().maxCoeff() < 1e-12);
  }
  for (const GwFoldResult& f : r->folds) {
    // Paths and stars differ in what GIN makes of them: the summaries keep it.
    CHECK(f.svm_accuracy >= 0.7);
  }
}

TEST_CASE("GwClassification.SummarySizeRangeDefaultsToThePercentilesOfTheSizes") {
  // Forty graphs of 5 to 8 nodes and one of 100: the default range is the
  // 5th to 95th percentile, 5..8, so the outlier's exact size summary is
  // clamped to 8's, where the smallest and largest (5..100) would set it apart.
  GraphDataset ds = PathsAndStars(40);
  std::vector<std::vector<std::uint32_t>> rows(100);
  for (std::uint32_t u = 1; u < 100; ++u) {
    rows[u].push_back(u - 1);
    rows[u - 1].push_back(u);
  }
  for (auto& r : rows) std::sort(r.begin(), r.end());
  ds.graphs.push_back(CsrGraph::FromRows(rows));
  ds.raw_labels.push_back(0);
  MapLabels(&ds);
  std::vector<GraphFold> folds = StratifiedGraphFolds(ds.labels, 4, 0);
  folds.resize(1);
  GwClassificationOptions o;
  o.embeddings = "blind";
  o.encoder = "summary";  // without LDP: each graph's exact, clamped size
  o.inner_folds = 3;
  auto r = ClassifyByGw(ds, folds, o);
  REQUIRE_MESSAGE(r.ok(), r.status().ToString());
  const Eigen::MatrixXd& d = r->distances[0];
  const Eigen::Index outlier = 40, eight = 3, five = 0;  // graph k has 5 + k % 4 nodes
  CHECK(d(outlier, eight) == doctest::Approx(0.0));
  CHECK(d(five, eight) > 0.01);
  o.summary_min_nodes = 5;
  o.summary_max_nodes = 100;
  r = ClassifyByGw(ds, folds, o);
  REQUIRE(r.ok());
  CHECK(r->distances[0](outlier, eight) > 0.01);
}
