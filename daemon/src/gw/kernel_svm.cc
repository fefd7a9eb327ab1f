#include "gw/kernel_svm.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <mutex>

#include <libsvm/svm.h>

#include "engine/parallel.h"
#include "gw/weighted_svm.h"
#include "ldpgraph/random_source.h"
#include "ldpgraph/samplers.h"

namespace ldpgraph {
namespace {

void Quiet(const char*) {}

// Each graph's point: the first graph whose row of distances agrees with its
// own, so that graphs which coincide for every kernel the grid can make are
// one point. Agreeing means to within rounding (1e-12 of the largest
// distance): the pairwise GW solves each pair once, in one argument order, so
// a graph and its twin can differ in the last bits against a third.
std::vector<std::uint32_t> Points(const Eigen::MatrixXd& d) {
  const double tolerance = d.size() > 0 ? 1e-12 * d.cwiseAbs().maxCoeff() : 0.0;
  std::vector<std::uint32_t> firsts, point(static_cast<std::size_t>(d.rows()));
  for (Eigen::Index i = 0; i < d.rows(); ++i) {
    point[static_cast<std::size_t>(i)] = static_cast<std::uint32_t>(i);
    for (std::uint32_t f : firsts) {
      Eigen::Index k = 0;
      while (k < d.cols() && std::fabs(d(i, k) - d(f, k)) <= tolerance) ++k;
      if (k == d.cols()) {
        point[static_cast<std::size_t>(i)] = f;
        break;
      }
    }
    if (point[static_cast<std::size_t>(i)] == i) firsts.push_back(static_cast<std::uint32_t>(i));
  }
  return point;
}

// The same SVM as libsvm's on `train`, solved on its distinct (point, label)
// pairs, each weighted by its count (weighted_svm.h).
double WeightedSvmAccuracy(const Eigen::MatrixXd& d, const std::vector<std::uint32_t>& point,
                           const std::vector<std::uint32_t>& labels, const std::vector<std::uint32_t>& train,
                           const std::vector<std::uint32_t>& test, double c, double gamma) {
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::size_t> group;
  std::vector<std::uint32_t> members, member_labels;
  std::vector<double> weights;
  for (std::uint32_t i : train) {
    auto [it, added] = group.try_emplace({point[i], labels[i]}, members.size());
    if (added) {
      members.push_back(i);
      member_labels.push_back(labels[i]);
      weights.push_back(0);
    }
    weights[it->second] += 1;
  }
  auto kernel_of = [gamma](double distance) { return std::exp(-gamma * distance); };
  const Eigen::MatrixXd kernel = d(members, members).unaryExpr(kernel_of);
  const WeightedSvm svm = WeightedSvm::Train(kernel, member_labels, weights, c);
  std::size_t right = 0;
  for (std::uint32_t t : test) {
    const Eigen::VectorXd row = d(t, members).unaryExpr(kernel_of).transpose();
    right += svm.Predict(row) == labels[t];
  }
  return static_cast<double>(right) / static_cast<double>(test.size());
}

// Accuracy of a C-SVC on kernel exp(-gamma D) trained on `train`, tested on
// `test`: by libsvm when the training graphs are distinct, so that figures
// from before the weighted solver are reproduced bit for bit.
double SvmAccuracy(const Eigen::MatrixXd& d, const std::vector<std::uint32_t>& point,
                   const std::vector<std::uint32_t>& labels, const std::vector<std::uint32_t>& train,
                   const std::vector<std::uint32_t>& test, double c, double gamma) {
  std::vector<std::uint32_t> seen;
  for (std::uint32_t i : train) seen.push_back(point[i]);
  std::sort(seen.begin(), seen.end());
  if (std::adjacent_find(seen.begin(), seen.end()) != seen.end()) {
    return WeightedSvmAccuracy(d, point, labels, train, test, c, gamma);
  }
  const int l = static_cast<int>(train.size());
  // libsvm's precomputed format: node 0 holds the row's 1-based id, node k
  // the kernel against training graph k, then the -1 terminator.
  std::vector<std::vector<svm_node>> rows(static_cast<std::size_t>(l));
  std::vector<svm_node*> x(static_cast<std::size_t>(l));
  std::vector<double> y(static_cast<std::size_t>(l));
  for (int i = 0; i < l; ++i) {
    auto& row = rows[static_cast<std::size_t>(i)];
    row.resize(static_cast<std::size_t>(l) + 2);
    row[0] = {0, static_cast<double>(i + 1)};
    for (int k = 0; k < l; ++k) {
      row[static_cast<std::size_t>(k) + 1] = {k + 1, std::exp(-gamma * d(train[static_cast<std::size_t>(i)], train[static_cast<std::size_t>(k)]))};
    }
    row[static_cast<std::size_t>(l) + 1] = {-1, 0};
    x[static_cast<std::size_t>(i)] = row.data();
    y[static_cast<std::size_t>(i)] = labels[train[static_cast<std::size_t>(i)]];
  }
  svm_problem problem{l, y.data(), x.data()};
  svm_parameter p{};
  p.svm_type = C_SVC;
  p.kernel_type = PRECOMPUTED;
  p.C = c;
  p.eps = 1e-3;
  p.cache_size = 16;
  p.shrinking = 1;
  svm_model* model = svm_train(&problem, &p);
  std::vector<svm_node> query(static_cast<std::size_t>(l) + 2);
  std::size_t right = 0;
  for (std::uint32_t t : test) {
    query[0] = {0, 0};
    for (int k = 0; k < l; ++k) query[static_cast<std::size_t>(k) + 1] = {k + 1, std::exp(-gamma * d(t, train[static_cast<std::size_t>(k)]))};
    query[static_cast<std::size_t>(l) + 1] = {-1, 0};
    right += static_cast<std::uint32_t>(svm_predict(model, query.data())) == labels[t];
  }
  svm_free_and_destroy_model(&model);
  return static_cast<double>(right) / static_cast<double>(test.size());
}

}  // namespace

SvmGrid SvmGrid::Paper() {
  SvmGrid g;
  for (int e = -7; e <= 7; ++e) g.c.push_back(std::pow(10.0, e));
  for (int e = -10; e <= 10; ++e) g.gamma.push_back(std::pow(2.0, e));
  return g;
}

Result<SvmFit> FitKernelSvm(const Eigen::MatrixXd& d, const std::vector<std::uint32_t>& labels,
                            const std::vector<std::uint32_t>& train, const std::vector<std::uint32_t>& test,
                            const SvmGrid& grid, int inner_folds, std::uint64_t seed, int threads,
                            const SvmProgress& progress) {
  if (threads < 1) return Status::InvalidArgument("threads must be at least 1");
  if (train.empty() || test.empty()) return Status::InvalidArgument("the train and test sets must not be empty");
  if (inner_folds < 2 || train.size() < static_cast<std::size_t>(inner_folds)) {
    return Status::InvalidArgument("need at least 2 folds and as many training graphs");
  }
  for (const auto* set : {&train, &test}) {
    for (std::uint32_t i : *set) {
      if (i >= d.rows() || i >= labels.size()) return Status::InvalidArgument("graph index " + std::to_string(i) + " out of range");
    }
  }
  svm_set_print_string_function(&Quiet);
  const std::vector<std::uint32_t> point = Points(d);
  // Stratified inner folds: each class's graphs shuffled, then dealt round robin.
  std::map<std::uint32_t, std::vector<std::uint32_t>> by_class;
  for (std::uint32_t i : train) by_class[labels[i]].push_back(i);
  SeededRandomSource rng(seed);
  std::vector<std::vector<std::uint32_t>> folds(static_cast<std::size_t>(inner_folds));
  std::size_t next = 0;
  for (auto& [label, members] : by_class) {
    for (std::size_t i = members.size(); i > 1; --i) std::swap(members[i - 1], members[UniformBelow(rng, i)]);
    for (std::uint32_t g : members) folds[next++ % folds.size()].push_back(g);
  }
  // Every (C, gamma) point on its own, on `threads` threads; then the first
  // best in grid order, as one thread would pick it.
  const std::size_t points = grid.c.size() * grid.gamma.size();
  std::vector<double> accuracy(points);
  std::atomic<std::size_t> next_point{0};
  std::mutex progress_mu;
  std::size_t points_done = 0;
  OnThreads(threads, [&] {
    for (std::size_t p = next_point++; p < points; p = next_point++) {
      const double c = grid.c[p / grid.gamma.size()], gamma = grid.gamma[p % grid.gamma.size()];
      double sum = 0;
      for (std::size_t f = 0; f < folds.size(); ++f) {
        std::vector<std::uint32_t> fit;
        for (std::size_t h = 0; h < folds.size(); ++h) {
          if (h != f) fit.insert(fit.end(), folds[h].begin(), folds[h].end());
        }
        sum += SvmAccuracy(d, point, labels, fit, folds[f], c, gamma);
      }
      accuracy[p] = sum / static_cast<double>(folds.size());
      if (progress) {
        std::lock_guard<std::mutex> lock(progress_mu);
        progress(++points_done, points);
      }
    }
  });
  SvmFit best;
  best.validation_accuracy = -1;
  for (std::size_t p = 0; p < points; ++p) {
    if (accuracy[p] > best.validation_accuracy) {
      best.validation_accuracy = accuracy[p];
      best.c = grid.c[p / grid.gamma.size()];
      best.gamma = grid.gamma[p % grid.gamma.size()];
    }
  }
  best.test_accuracy = SvmAccuracy(d, point, labels, train, test, best.c, best.gamma);
  return best;
}

std::uint32_t KnnPredict(const Eigen::MatrixXd& d, const std::vector<std::uint32_t>& labels,
                         const std::vector<std::uint32_t>& train, std::uint32_t t, int k) {
  std::vector<std::uint32_t> order = train;
  const std::size_t kk = std::min<std::size_t>(static_cast<std::size_t>(std::max(k, 1)), order.size());
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(kk), order.end(),
                    [&](std::uint32_t a, std::uint32_t b) { return d(t, a) < d(t, b) || (d(t, a) == d(t, b) && a < b); });
  std::map<std::uint32_t, int> votes;
  for (std::size_t i = 0; i < kk; ++i) ++votes[labels[order[i]]];
  std::uint32_t guess = 0;
  int most = -1;
  for (auto& [label, count] : votes) {
    if (count > most) {
      most = count;
      guess = label;
    }
  }
  return guess;
}

double KnnAccuracy(const Eigen::MatrixXd& d, const std::vector<std::uint32_t>& labels,
                   const std::vector<std::uint32_t>& train, const std::vector<std::uint32_t>& test, int k) {
  std::size_t right = 0;
  for (std::uint32_t t : test) right += KnnPredict(d, labels, train, t, k) == labels[t];
  return test.empty() ? 0 : static_cast<double>(right) / static_cast<double>(test.size());
}

}  // namespace ldpgraph
