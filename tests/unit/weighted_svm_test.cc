// The weighted C-SVC (gw/weighted_svm.h) against libsvm itself: the same
// decision values on distinct points, the same on coinciding points merged
// with weights as libsvm gets on them repeated, and the same votes for
// several classes. Both solvers run to a tight tolerance, so that their
// different paths end at the same optimum.
#include <doctest/doctest.h>

#include <libsvm/svm.h>

#include <cmath>
#include <vector>

#include "gw/kernel_svm.h"
#include "gw/weighted_svm.h"
#include "ldpgraph/random_source.h"
#include "ldpgraph/samplers.h"

using namespace ldpgraph;

namespace {

constexpr double kTight = 1e-9;

void Quiet(const char*) {}

// Points on a line, labelled by `label_of`; the kernel exp(-gamma |x - y|),
// indefinite as GW's is.
struct LineData {
  std::vector<double> x;
  std::vector<std::uint32_t> labels;
  double gamma = 0.7;
  double Kernel(double a, double b) const { return std::exp(-gamma * std::fabs(a - b)); }
};

LineData Line(int n, int classes, std::uint64_t seed) {
  SeededRandomSource rng(seed);
  LineData data;
  data.gamma = 0.7;
  for (int i = 0; i < n; ++i) {
    const std::uint32_t label = static_cast<std::uint32_t>(i % classes);
    data.labels.push_back(label);
    data.x.push_back(1.2 * label + 2.0 * UniformUnit(rng));
  }
  return data;
}

// libsvm's C-SVC on the points as given, decision values and prediction for
// every query.
struct LibsvmAnswers {
  std::vector<std::vector<double>> values;
  std::vector<double> predictions;
};

LibsvmAnswers Libsvm(const LineData& data, double c, const std::vector<double>& queries) {
  svm_set_print_string_function(&Quiet);
  const int l = static_cast<int>(data.x.size());
  std::vector<std::vector<svm_node>> rows(data.x.size());
  std::vector<svm_node*> x;
  std::vector<double> y;
  for (int i = 0; i < l; ++i) {
    auto& row = rows[static_cast<std::size_t>(i)];
    row.push_back({0, static_cast<double>(i + 1)});
    for (int k = 0; k < l; ++k) {
      row.push_back({k + 1, data.Kernel(data.x[static_cast<std::size_t>(i)], data.x[static_cast<std::size_t>(k)])});
    }
    row.push_back({-1, 0});
    x.push_back(row.data());
    y.push_back(data.labels[static_cast<std::size_t>(i)]);
  }
  svm_problem problem{l, y.data(), x.data()};
  svm_parameter p{};
  p.svm_type = C_SVC;
  p.kernel_type = PRECOMPUTED;
  p.C = c;
  p.eps = kTight;
  p.cache_size = 16;
  p.shrinking = 1;
  svm_model* model = svm_train(&problem, &p);
  LibsvmAnswers answers;
  const int pairs = model->nr_class * (model->nr_class - 1) / 2;
  for (double q : queries) {
    std::vector<svm_node> query{{0, 0}};
    for (int k = 0; k < l; ++k) query.push_back({k + 1, data.Kernel(q, data.x[static_cast<std::size_t>(k)])});
    query.push_back({-1, 0});
    std::vector<double> values(static_cast<std::size_t>(pairs));
    answers.predictions.push_back(svm_predict_values(model, query.data(), values.data()));
    answers.values.push_back(values);
  }
  svm_free_and_destroy_model(&model);
  return answers;
}

// `base` with point i repeated 1 + i % `cycle` times.
LineData Repeated(const LineData& base, std::size_t cycle) {
  LineData data;
  data.gamma = base.gamma;
  for (std::size_t i = 0; i < base.x.size(); ++i) {
    for (std::size_t r = 0; r <= i % cycle; ++r) {
      data.x.push_back(base.x[i]);
      data.labels.push_back(base.labels[i]);
    }
  }
  return data;
}

// The weighted solver on the distinct (x, label) pairs of `data`, each
// weighted by its count.
struct Merged {
  LineData points;
  WeightedSvm svm;
};

Merged MergedSvm(const LineData& data, double c) {
  Merged merged;
  merged.points.gamma = data.gamma;
  std::vector<double> weights;
  for (std::size_t i = 0; i < data.x.size(); ++i) {
    std::size_t m = 0;
    while (m < merged.points.x.size() &&
           (merged.points.x[m] != data.x[i] || merged.points.labels[m] != data.labels[i])) {
      ++m;
    }
    if (m == merged.points.x.size()) {
      merged.points.x.push_back(data.x[i]);
      merged.points.labels.push_back(data.labels[i]);
      weights.push_back(0);
    }
    weights[m] += 1;
  }
  const auto l = static_cast<Eigen::Index>(merged.points.x.size());
  Eigen::MatrixXd kernel(l, l);
  for (Eigen::Index i = 0; i < l; ++i) {
    for (Eigen::Index k = 0; k < l; ++k) kernel(i, k) = data.Kernel(merged.points.x[i], merged.points.x[k]);
  }
  merged.svm = WeightedSvm::Train(kernel, merged.points.labels, weights, c, kTight);
  return merged;
}

Eigen::VectorXd KernelRow(const LineData& points, double q) {
  Eigen::VectorXd row(static_cast<Eigen::Index>(points.x.size()));
  for (Eigen::Index k = 0; k < row.size(); ++k) row(k) = points.Kernel(q, points.x[static_cast<std::size_t>(k)]);
  return row;
}

// Checks that the merged weighted SVM answers every query as libsvm does on
// `data` itself, decision values to `relative` (libsvm's own path and stop).
void CheckAgainstLibsvm(const LineData& data, double c, double relative = 1e-5) {
  std::vector<double> queries;
  for (int q = 0; q <= 40; ++q) queries.push_back(-1.0 + 0.1 * q);
  const LibsvmAnswers expected = Libsvm(data, c, queries);
  const Merged merged = MergedSvm(data, c);
  for (std::size_t q = 0; q < queries.size(); ++q) {
    const Eigen::VectorXd row = KernelRow(merged.points, queries[q]);
    const std::vector<double> values = merged.svm.DecisionValues(row);
    REQUIRE(values.size() == expected.values[q].size());
    for (std::size_t v = 0; v < values.size(); ++v) {
      CHECK(values[v] == doctest::Approx(expected.values[q][v]).epsilon(relative));
    }
    CHECK(merged.svm.Predict(row) == static_cast<std::uint32_t>(expected.predictions[q]));
  }
}

}  // namespace

TEST_CASE("WeightedSvm.DistinctPointsWithUnitWeightsAreLibsvm") {
  for (double c : {0.1, 1.0, 100.0}) CheckAgainstLibsvm(Line(30, 2, 1), c);
}

TEST_CASE("WeightedSvm.NearlySingularKernelsAtLargeCReachLibsvmsOptimum") {
  // Small gamma and large C: the kernel is nearly all ones and the classes
  // overlap, where pairwise steps crawl and the Newton steps on the free
  // variables carry the solver. Both end at the one optimum, to the 1e-4 that
  // so ill-conditioned a kernel leaves between two solvers' stops.
  LineData data = Line(24, 2, 5);
  data.gamma = 0.01;
  for (double c : {1e3, 1e5}) CheckAgainstLibsvm(data, c, 1e-4);
}

TEST_CASE("WeightedSvm.MergedCoincidingPointsAreLibsvmOnThemRepeated") {
  // 12 distinct points, each repeated 1 to 4 times, and two points that
  // appear under both labels (their variables can only be merged per label).
  const LineData base = Line(12, 2, 2);
  LineData data = Repeated(base, 4);
  data.x.push_back(base.x[0]);
  data.labels.push_back(1 - base.labels[0]);
  data.x.push_back(base.x[5]);
  data.labels.push_back(1 - base.labels[5]);
  REQUIRE(data.x.size() == 3 * (1 + 2 + 3 + 4) + 2);
  for (double c : {0.5, 10.0, 1000.0}) CheckAgainstLibsvm(data, c);
}

TEST_CASE("WeightedSvm.SeveralClassesVoteAsLibsvm") {
  CheckAgainstLibsvm(Repeated(Line(18, 3, 3), 3), 5.0);
}

TEST_CASE("KernelSvm.CoincidingGraphsGoThroughTheWeightedSolver") {
  // 200 graphs on 8 distinct points of two overlapping classes, as the
  // summary encoder leaves them: the grid completes, and its accuracy is
  // that of the best rule on the 8 points (each point's majority label).
  SeededRandomSource rng(4);
  const int n = 200;
  std::vector<double> x;
  std::vector<std::uint32_t> labels;
  for (int i = 0; i < n; ++i) {
    const int cell = static_cast<int>(UniformBelow(rng, 8));
    x.push_back(cell);
    labels.push_back(UniformUnit(rng) < (cell < 4 ? 0.2 : 0.8) ? 1U : 0U);
  }
  Eigen::MatrixXd d(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) d(i, j) = std::pow(x[static_cast<std::size_t>(i)] - x[static_cast<std::size_t>(j)], 2);
  std::vector<std::uint32_t> train, test;
  for (std::uint32_t i = 0; i < n; ++i) (i < 150 ? train : test).push_back(i);
  Result<SvmFit> fit = FitKernelSvm(d, labels, train, test, SvmGrid::Paper(), 5, 0);
  REQUIRE(fit.ok());
  std::size_t majority_right = 0;
  for (std::uint32_t t : test) majority_right += (x[t] < 4 ? 0U : 1U) == labels[t];
  CHECK(fit->test_accuracy == doctest::Approx(static_cast<double>(majority_right) / test.size()));
  CHECK(fit->validation_accuracy > 0.7);
}
