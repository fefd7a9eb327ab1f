#include "gw/gw_clustering.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <string>

#include <Eigen/Eigenvalues>

#include "ldpgraph/random_source.h"
#include "ldpgraph/samplers.h"

namespace ldpgraph {
namespace {

constexpr int kRestarts = 10;

Status CheckDistances(const Eigen::MatrixXd& d, int k) {
  if (d.rows() != d.cols()) return Status::InvalidArgument("a distance matrix must be square");
  for (Eigen::Index i = 0; i < d.size(); ++i) {
    const double v = d.data()[i];
    if (!std::isfinite(v) || v < 0) {
      return Status::InvalidArgument("distance (" + std::to_string(i % d.rows()) + ", " + std::to_string(i / d.rows()) +
                                     ") is " + std::to_string(v) + ": distances must be finite and non-negative");
    }
  }
  if (k < 1 || k > d.rows()) {
    return Status::InvalidArgument("k = " + std::to_string(k) + " clusters of " + std::to_string(d.rows()) + " graphs");
  }
  return Status::Ok();
}

// Lloyd's k-means on the rows of x; the best of kRestarts by inertia.
std::vector<int> KMeansRows(const Eigen::MatrixXd& x, int k, RandomSource& rng) {
  const int n = static_cast<int>(x.rows());
  std::vector<int> best;
  double best_inertia = std::numeric_limits<double>::infinity();
  for (int restart = 0; restart < kRestarts; ++restart) {
    const std::vector<int> seeds =
        KMeansPlusPlusSeeds(n, k, [&](int i, int j) { return (x.row(i) - x.row(j)).squaredNorm(); }, rng);
    Eigen::MatrixXd centres(k, x.cols());
    for (int c = 0; c < k; ++c) centres.row(c) = x.row(seeds[static_cast<std::size_t>(c)]);
    std::vector<int> of(static_cast<std::size_t>(n), -1);
    double inertia = 0;
    for (int it = 0; it < 300; ++it) {
      bool changed = false;
      inertia = 0;
      for (int i = 0; i < n; ++i) {
        Eigen::Index c = 0;
        inertia += (centres.rowwise() - x.row(i)).rowwise().squaredNorm().minCoeff(&c);
        if (of[static_cast<std::size_t>(i)] != static_cast<int>(c)) changed = true;
        of[static_cast<std::size_t>(i)] = static_cast<int>(c);
      }
      if (!changed) break;
      Eigen::MatrixXd sum = Eigen::MatrixXd::Zero(k, x.cols());
      std::vector<int> count(static_cast<std::size_t>(k), 0);
      for (int i = 0; i < n; ++i) {
        sum.row(of[static_cast<std::size_t>(i)]) += x.row(i);
        ++count[static_cast<std::size_t>(of[static_cast<std::size_t>(i)])];
      }
      for (int c = 0; c < k; ++c) {
        if (count[static_cast<std::size_t>(c)] > 0) centres.row(c) = sum.row(c) / count[static_cast<std::size_t>(c)];
      }
    }
    if (inertia < best_inertia) {
      best_inertia = inertia;
      best = of;
    }
  }
  return best;
}

double Median(const Eigen::MatrixXd& d) {
  std::vector<double> v;
  for (Eigen::Index i = 0; i < d.rows(); ++i) {
    for (Eigen::Index j = i + 1; j < d.cols(); ++j) v.push_back(d(i, j));
  }
  if (v.empty()) return 1;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

// Contingency counts of two labelings, with each side's totals.
struct Contingency {
  std::map<std::pair<int, int>, double> joint;
  std::map<int, double> a, b;
  double n = 0;
};

Contingency Count(const std::vector<int>& a, const std::vector<int>& b) {
  Contingency c;
  for (std::size_t i = 0; i < a.size(); ++i) {
    c.joint[{a[i], b[i]}] += 1;
    c.a[a[i]] += 1;
    c.b[b[i]] += 1;
  }
  c.n = static_cast<double>(a.size());
  return c;
}

double Entropy(const std::map<int, double>& counts, double n) {
  double h = 0;
  for (const auto& [label, k] : counts) h -= k / n * std::log(k / n);
  return h;
}

}  // namespace

std::vector<int> KMeansPlusPlusSeeds(int n, int k, const std::function<double(int, int)>& cost, RandomSource& rng) {
  std::vector<int> centres = {static_cast<int>(UniformBelow(rng, static_cast<std::uint64_t>(n)))};
  std::vector<double> nearest(static_cast<std::size_t>(n), std::numeric_limits<double>::infinity());
  while (static_cast<int>(centres.size()) < k) {
    double total = 0;
    for (int i = 0; i < n; ++i) {
      nearest[static_cast<std::size_t>(i)] = std::min(nearest[static_cast<std::size_t>(i)], cost(i, centres.back()));
      total += nearest[static_cast<std::size_t>(i)];
    }
    int next = 0;
    if (total > 0) {
      double u = UniformUnit(rng) * total;
      for (next = 0; next + 1 < n && (u -= nearest[static_cast<std::size_t>(next)]) >= 0; ++next) {
      }
    } else {
      next = static_cast<int>(UniformBelow(rng, static_cast<std::uint64_t>(n)));  // every item on a centre
    }
    centres.push_back(next);
  }
  return centres;
}

Result<std::vector<int>> SpectralClusters(const Eigen::MatrixXd& d, int k, std::uint64_t seed) {
  LDPGRAPH_RETURN_IF_ERROR(CheckDistances(d, k));
  const double scale = std::max(Median(d), 1e-300);
  Eigen::MatrixXd w = (-d / scale).array().exp().matrix();
  w.diagonal().setZero();
  const Eigen::VectorXd degree = w.rowwise().sum().cwiseMax(1e-300);
  const Eigen::VectorXd inv_sqrt = degree.cwiseSqrt().cwiseInverse();
  // D^-1/2 W D^-1/2: its largest eigenvalues are the Laplacian's smallest.
  const Eigen::MatrixXd m = inv_sqrt.asDiagonal() * w * inv_sqrt.asDiagonal();
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(m);
  Eigen::MatrixXd x = eigen.eigenvectors().rightCols(k);  // eigenvalues ascend
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    const double norm = x.row(i).norm();
    if (norm > 0) x.row(i) /= norm;
  }
  SeededRandomSource rng(seed ^ 0x5bec7aULL);
  return KMeansRows(x, k, rng);
}

Result<std::vector<int>> KMedoidClusters(const Eigen::MatrixXd& d, int k, std::uint64_t seed) {
  LDPGRAPH_RETURN_IF_ERROR(CheckDistances(d, k));
  const int n = static_cast<int>(d.rows());
  SeededRandomSource rng(seed ^ 0x3ed01dULL);
  std::vector<int> best;
  double best_cost = std::numeric_limits<double>::infinity();
  for (int restart = 0; restart < kRestarts; ++restart) {
    std::vector<int> medoids = KMeansPlusPlusSeeds(n, k, [&](int i, int j) { return d(i, j) * d(i, j); }, rng);
    std::vector<int> of(static_cast<std::size_t>(n));
    double cost = 0;
    for (int it = 0; it < 100; ++it) {
      cost = 0;
      for (int i = 0; i < n; ++i) {
        int c = 0;
        for (int j = 1; j < k; ++j) {
          if (d(i, medoids[static_cast<std::size_t>(j)]) < d(i, medoids[static_cast<std::size_t>(c)])) c = j;
        }
        of[static_cast<std::size_t>(i)] = c;
        cost += d(i, medoids[static_cast<std::size_t>(c)]);
      }
      // Each cluster's medoid: the member with the least total distance to the others.
      bool moved = false;
      for (int c = 0; c < k; ++c) {
        int arg = medoids[static_cast<std::size_t>(c)];
        double least = std::numeric_limits<double>::infinity();
        for (int i = 0; i < n; ++i) {
          if (of[static_cast<std::size_t>(i)] != c) continue;
          double total = 0;
          for (int j = 0; j < n; ++j) {
            if (of[static_cast<std::size_t>(j)] == c) total += d(i, j);
          }
          if (total < least - 1e-12 * std::max(1.0, least)) {
            least = total;
            arg = i;
          }
        }
        if (arg != medoids[static_cast<std::size_t>(c)]) moved = true;
        medoids[static_cast<std::size_t>(c)] = arg;
      }
      if (!moved) break;
    }
    if (cost < best_cost) {
      best_cost = cost;
      best = of;
    }
  }
  return best;
}

double NormalizedMutualInformation(const std::vector<int>& a, const std::vector<int>& b) {
  const Contingency c = Count(a, b);
  if (c.n == 0) return 0;
  double mi = 0;
  for (const auto& [ab, k] : c.joint) {
    mi += k / c.n * std::log(k * c.n / (c.a.at(ab.first) * c.b.at(ab.second)));
  }
  const double ha = Entropy(c.a, c.n), hb = Entropy(c.b, c.n);
  if (ha + hb == 0) return 1;  // both one cluster: the same partition
  return std::max(0.0, 2 * mi / (ha + hb));
}

double AdjustedRandIndex(const std::vector<int>& a, const std::vector<int>& b) {
  const Contingency c = Count(a, b);
  auto pairs = [](double k) { return k * (k - 1) / 2; };
  double index = 0, sa = 0, sb = 0;
  for (const auto& [ab, k] : c.joint) index += pairs(k);
  for (const auto& [label, k] : c.a) sa += pairs(k);
  for (const auto& [label, k] : c.b) sb += pairs(k);
  const double expected = sa * sb / std::max(pairs(c.n), 1.0);
  const double top = (sa + sb) / 2;
  if (top == expected) return 1;  // a single cluster on both sides
  return (index - expected) / (top - expected);
}

}  // namespace ldpgraph
