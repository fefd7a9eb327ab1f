// The experiments' building blocks: the job runner, the resumable results
// table, the summary, the SVG charts, NonPriv-Part and the baseline feature
// mechanisms.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <fstream>
#include <sstream>
#include <thread>

#include "experiments/job_runner.h"
#include "experiments/results_report.h"
#include "experiments/results_table.h"
#include "experiments/summary.h"
#include "experiments/svg_plot.h"
#include "privacy/feature_mechanisms.h"
#include "privacy/non_private_part.h"
#include "support/temp_dir.h"

using namespace ldpgraph;
using ldpgraph::testing::TempDir;

namespace {

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

const CsvRow kColumns = {"mechanism", "split", "accuracy"};

}  // namespace

TEST_CASE("JobRunner.RunsEveryJobOnceAndReportsTheFirstFailureByItsLabel") {
  std::vector<std::atomic<int>> runs(12);
  std::vector<ExperimentJob> jobs;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    jobs.push_back({"job " + std::to_string(i), [&runs, i](const RunProgress& progress) {
                      for (int e = 1; e <= 3; ++e) progress("epoch " + std::to_string(e) + "/3");
                      ++runs[i];
                      return Status::Ok();
                    }});
  }
  CHECK(RunJobs("test", jobs, 3, 1).ok());
  for (const auto& r : runs) CHECK(r == 1);

  // A failure stops the workers from taking new jobs and names its job.
  std::atomic<int> started{0};
  std::vector<ExperimentJob> failing;
  for (int i = 0; i < 50; ++i) {
    failing.push_back({"run " + std::to_string(i), [&started, i](const RunProgress&) {
                         ++started;
                         std::this_thread::sleep_for(std::chrono::milliseconds(5));  // the failure lands first
                         return i == 1 ? Status::InvalidArgument("bad input") : Status::Ok();
                       }});
  }
  const Status s = RunJobs("test", failing, 2, 0);
  CHECK(s.code() == StatusCode::kInvalidArgument);
  CHECK(s.message() == "run 1: bad input");
  CHECK(started < 50);
  CHECK(RunJobs("test", {}, 4, 0).ok());
}

TEST_CASE("ResultsTable.AppendsDurablyAndResumes") {
  TempDir dir;
  const std::string path = dir.path() + "/results.csv";
  {
    auto t = ResultsTable::Open(path, kColumns, {0, 1});
    REQUIRE(t.ok());
    CHECK_FALSE((*t)->Has({"dprr", "0"}));
    REQUIRE((*t)->Append({"dprr", "0", "0.8"}).ok());
    REQUIRE((*t)->Append({"rr", "0", "0.6"}).ok());
  }
  auto t = ResultsTable::Open(path, kColumns, {0, 1});
  REQUIRE(t.ok());
  CHECK((*t)->Has({"dprr", "0"}));
  CHECK((*t)->Has({"rr", "0"}));
  CHECK_FALSE((*t)->Has({"dprr", "1"}));
  CHECK((*t)->Rows().size() == 2);
  CHECK(ReadAll(path) == "mechanism,split,accuracy\ndprr,0,0.8\nrr,0,0.6\n");
}

TEST_CASE("ResultsTable.CutsATornLastLine") {
  TempDir dir;
  const std::string path = dir.Write("results.csv", "mechanism,split,accuracy\ndprr,0,0.8\nrr,0,0.");
  auto t = ResultsTable::Open(path, kColumns, {0, 1});
  REQUIRE(t.ok());
  CHECK((*t)->Rows().size() == 1);
  CHECK_FALSE((*t)->Has({"rr", "0"}));
  REQUIRE((*t)->Append({"rr", "0", "0.6"}).ok());
  CHECK(ReadAll(path) == "mechanism,split,accuracy\ndprr,0,0.8\nrr,0,0.6\n");
}

TEST_CASE("ResultsTable.ReadOnlyLeavesTheFileAsItIs") {
  // A reader (summary, report, --reuse) may look while a study writes: it
  // skips the line being written, never repairs or creates the file.
  TempDir dir;
  const std::string text = "mechanism,split,accuracy\ndprr,0,0.8\nrr,0,0.";
  const std::string path = dir.Write("results.csv", text);
  auto t = ResultsTable::OpenReadOnly(path, kColumns, {0, 1});
  REQUIRE(t.ok());
  CHECK((*t)->Rows().size() == 1);
  CHECK((*t)->Find({"dprr", "0"}) == CsvRow{"dprr", "0", "0.8"});
  CHECK_FALSE((*t)->Find({"rr", "0"}).has_value());
  CHECK((*t)->Append({"rr", "1", "0.6"}).code() == StatusCode::kFailedPrecondition);
  CHECK(ReadAll(path) == text);
  CHECK(ResultsTable::OpenReadOnly(dir.path() + "/none.csv", kColumns, {0}).status().code() ==
        StatusCode::kInvalidArgument);
  CHECK_FALSE(std::ifstream(dir.path() + "/none.csv").good());
}

TEST_CASE("ResultsTable.RefusesAnotherHeaderBadRowsAndBadFields") {
  TempDir dir;
  const std::string other = dir.Write("other.csv", "a,b\n1,2\n");
  auto t = ResultsTable::Open(other, kColumns, {0});
  REQUIRE_FALSE(t.ok());
  CHECK(t.status().message().find("header") != std::string::npos);
  CHECK(ReadAll(other) == "a,b\n1,2\n");  // untouched

  const std::string short_row = dir.Write("short.csv", "mechanism,split,accuracy\ndprr,0\n");
  auto s = ResultsTable::Open(short_row, kColumns, {0});
  REQUIRE_FALSE(s.ok());
  CHECK(s.status().message().find(":2:") != std::string::npos);

  auto good = ResultsTable::Open(dir.path() + "/good.csv", kColumns, {0});
  REQUIRE(good.ok());
  CHECK_FALSE((*good)->Append({"a,b", "0", "1"}).ok());
  CHECK_FALSE((*good)->Append({"a", "0"}).ok());
  CHECK((*good)->Rows().empty());
}

TEST_CASE("Summary.MeanAndSampleStandardDeviationInReadingOrder") {
  const CsvRow columns = {"mechanism", "epsilon", "split", "accuracy"};
  const std::vector<CsvRow> rows = {{"rr", "1", "0", "0.5"},   {"dprr", "2", "0", "0.9"}, {"dprr", "0.5", "0", "0.6"},
                                    {"dprr", "0.5", "1", "0.8"}, {"dprr", "2", "1", "0.7"}};
  auto s = Summarise(columns, rows, {"mechanism", "epsilon"}, {"accuracy"});
  REQUIRE(s.ok());
  REQUIRE(s->size() == 3);
  CHECK((*s)[0].setting == CsvRow{"dprr", "0.5"});  // 0.5 before 2: numbers compare as numbers
  CHECK((*s)[0].runs == 2);
  CHECK((*s)[0].mean[0] == doctest::Approx(0.7));
  CHECK((*s)[0].stddev[0] == doctest::Approx(std::sqrt(0.02)));
  CHECK((*s)[2].setting == CsvRow{"rr", "1"});
  CHECK((*s)[2].stddev[0] == 0.0);
  CHECK_FALSE(Summarise(columns, rows, {"nope"}, {"accuracy"}).ok());
}

TEST_CASE("ResultsReport.CellsReadAlike") {
  CHECK(ReportCell("4998003") == "4998003");
  CHECK(ReportCell("4998003.5") == "4998004");
  CHECK(ReportCell("-12345.6") == "-12346");
  CHECK(ReportCell("0.6715124816446402") == "0.6715");
  CHECK(ReportCell("869.448800692") == "869.4");
  CHECK(ReportCell("dprr-or") == "dprr-or");
  CHECK(ReportCell("inf") == "inf");
}

TEST_CASE("Svg.ChartsHoldTheirSeriesAndEscapeText") {
  PlotSpec spec;
  spec.title = "a < b & c";
  spec.log_x = true;
  const std::string svg = RenderSvg(spec, {{"dprr", {0.1, 1, 10}, {0.5, 0.7, 0.9}, {0.01, 0.02, 0.03}},
                                           {"rr", {0.1, 1, 10}, {0.5, 0.55, 0.6}, {}}});
  CHECK(svg.rfind("<svg", 0) == 0);
  CHECK(svg.find("</svg>") != std::string::npos);
  CHECK(svg.find("a &lt; b &amp; c") != std::string::npos);
  CHECK(svg.find(">dprr<") != std::string::npos);
  CHECK(svg.find(">rr<") != std::string::npos);
  CHECK(svg.find(">10<") != std::string::npos);  // a power-of-ten tick on the log axis
  // Non-positive values are left out on a log axis instead of breaking the chart.
  const std::string bad = RenderSvg(spec, {{"x", {0, -1}, {1, 2}, {}}});
  CHECK(bad.find("nan") == std::string::npos);
  CHECK(bad.find("inf") == std::string::npos);
}

TEST_CASE("NonPrivPart.KeepsTheInducedSubgraphOfAFraction") {
  GraphDataset ds;
  ds.graphs.push_back(CsrGraph::FromUndirectedEdges(10, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}, {6, 7}, {7, 8}, {8, 9}}));
  ds.raw_labels = {0};
  MapLabels(&ds);
  std::uint64_t kept = 0;
  auto half = KeepNonPrivateUsers(ds, 0.5, 7, &kept);
  REQUIRE(half.ok());
  CHECK(half->graphs[0].num_nodes() == 5);
  CHECK(half->graphs[0].num_entries() == kept);
  for (std::uint32_t u = 0; u < 5; ++u) {
    for (std::uint32_t v : half->graphs[0].neighbours(u)) CHECK(v < 5);
  }
  auto none = KeepNonPrivateUsers(ds, 0.0, 7, &kept);
  REQUIRE(none.ok());
  CHECK(none->graphs[0].num_nodes() == 0);
  auto all = KeepNonPrivateUsers(ds, 1.0, 7, &kept);
  REQUIRE(all.ok());
  CHECK(all->graphs[0].num_entries() == ds.graphs[0].num_entries());
  CHECK_FALSE(KeepNonPrivateUsers(ds, 1.5, 7, &kept).ok());
}

TEST_CASE("FeatureMechanisms.OneBitAndLaplaceAreUnbiasedWithTheirVariance") {
  // 4000 nodes x 4 dims of value 0.25: per-dimension means and variances
  // against the formulas.
  const int n = 4000, d = 4;
  const double x = 0.25, eps = 2.0;
  const NodeFeatures features = NodeFeatures::Dense(Matrix::Constant(n, d, static_cast<float>(x)));
  auto one_bit_features = PerturbFeatures(features, FeatureMechanism::kOneBit, eps, 11);
  REQUIRE(one_bit_features.ok());
  REQUIRE_FALSE(one_bit_features->is_factored());
  const Matrix one_bit = one_bit_features->ToDense();
  const double e = std::exp(eps / d);
  const double p = 1 / (e + 1) + x * (e - 1) / (e + 1);
  // x' takes (e / (e - 1)) w.p. p and (-1 / (e - 1)) otherwise; its variance is p (1 - p) ((e + 1) / (e - 1))^2.
  const double one_bit_var = p * (1 - p) * std::pow((e + 1) / (e - 1), 2);
  auto laplace_features = PerturbFeatures(features, FeatureMechanism::kLaplace, eps, 12);
  REQUIRE(laplace_features.ok());
  const Matrix laplace = laplace_features->ToDense();
  const double laplace_var = 2 * std::pow(d / eps, 2);
  for (const auto& [m, var] : {std::make_pair(&one_bit, one_bit_var), std::make_pair(&laplace, laplace_var)}) {
    const double mean = m->mean();
    const double sample_var = (m->array() - static_cast<float>(mean)).square().sum() / (m->size() - 1);
    // Mean within 5 standard errors, variance within 10%.
    CHECK(std::fabs(mean - x) < 5 * std::sqrt(var / m->size()));
    CHECK(sample_var == doctest::Approx(var).epsilon(0.1));
  }
  CHECK_FALSE(PerturbFeatures(features, FeatureMechanism::kLaplace, 0.0, 1).ok());
  CHECK_FALSE(ParseFeatureMechanism("gauss").ok());
}

TEST_CASE("FeatureMechanisms.SparseScalingMatchesDenseAndStaysSparseWhenItCan") {
  // Columns: binary with zeros; positive weights with zeros; stored on every
  // row (no unstored zero); all zero.
  SparseMatrix x;
  x.rows = 3;
  x.cols = 4;
  x.offsets = {0, 3, 5, 7};
  x.indices = {0, 1, 2, 1, 2, 0, 2};
  x.values = {1, 4, 3, 2, 5, 1, 7};
  NodeFeatures sparse = NodeFeatures::Sparse(x);
  Matrix dense = ToDense(x);
  ScaleColumnsToUnit(&sparse);
  ScaleColumnsToUnit(&dense);
  REQUIRE(sparse.is_sparse());
  CHECK(ToDense(sparse.sparse()) == dense);

  SparseMatrix binary = x;
  binary.values.clear();  // every stored value 1: scaling changes nothing but the full column
  binary.indices = {0, 1, 3, 1, 3, 0, 3};
  NodeFeatures b = NodeFeatures::Sparse(binary);
  ScaleColumnsToUnit(&b);
  Matrix expected = ToDense(binary);
  ScaleColumnsToUnit(&expected);
  CHECK(ToDense(b.sparse()) == expected);

  // A negative value in a column with unstored zeros: those zeros map above 0.
  SparseMatrix negative = x;
  negative.values[1] = -4;
  NodeFeatures n = NodeFeatures::Sparse(negative);
  Matrix dense_n = ToDense(negative);
  ScaleColumnsToUnit(&n);
  ScaleColumnsToUnit(&dense_n);
  REQUIRE_FALSE(n.is_sparse());
  CHECK(n.dense() == dense_n);
  CHECK(n.dense()(2, 1) == doctest::Approx(4.0 / 6));  // the unstored zero: (0 - -4) / (2 - -4)
}

TEST_CASE("FeatureMechanisms.ScalingMapsEveryColumnToTheUnitInterval") {
  Matrix m(3, 2);
  m << 1, 5, 3, 5, 2, 5;
  ScaleColumnsToUnit(&m);
  CHECK(m(0, 0) == 0.0f);
  CHECK(m(1, 0) == 1.0f);
  CHECK(m(2, 0) == 0.5f);
  CHECK(m.col(1).isZero());
}
