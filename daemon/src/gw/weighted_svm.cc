#include "gw/weighted_svm.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <Eigen/QR>

namespace ldpgraph {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// libsvm's stand-in for a non-positive curvature along the chosen pair (the
// kernel of GW distances is indefinite, so it happens).
constexpr double kTau = 1e-12;

struct Dual {
  std::vector<double> alpha;
  double rho = 0;
};

// Every this many SMO steps, Newton steps on the free variables.
constexpr std::size_t kNewtonEvery = 100;

// One step of the primal active-set method: the variables strictly inside
// their box move together to the minimum of the objective over the free
// subspace (the bounded ones held, y'a kept), or as far towards it as the
// box allows; taken only when it lowers the objective. True when a bound
// stopped it (one variable fewer is free, and another step may follow).
// Pairwise SMO steps crawl where the kernel is nearly singular and C large:
// on PROTEINS' summaries, gamma 4 and C 1e7 ran to the 10^7-step cap; with
// these steps every 100 SMO steps it converged within 601.
bool NewtonOnFree(const Eigen::MatrixXd& k, const std::vector<double>& y, const std::vector<double>& upper,
                  std::vector<double>& a, std::vector<double>& g) {
  std::vector<std::size_t> free;
  for (std::size_t t = 0; t < a.size(); ++t) {
    if (a[t] > 0 && a[t] < upper[t]) free.push_back(t);
  }
  if (free.size() < 2) return false;
  const auto f = static_cast<Eigen::Index>(free.size());
  // [Q_FF y_F; y_F' 0] [p; lambda] = [-g_F; 0], least squares and least
  // norm where Q_FF is singular.
  Eigen::MatrixXd m = Eigen::MatrixXd::Zero(f + 1, f + 1);
  Eigen::VectorXd rhs = Eigen::VectorXd::Zero(f + 1);
  for (Eigen::Index u = 0; u < f; ++u) {
    const std::size_t i = free[static_cast<std::size_t>(u)];
    for (Eigen::Index v = 0; v < f; ++v) {
      const std::size_t j = free[static_cast<std::size_t>(v)];
      m(u, v) = y[i] * y[j] * k(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j));
    }
    m(u, f) = m(f, u) = y[i];
    rhs(u) = -g[i];
  }
  const Eigen::VectorXd p = m.completeOrthogonalDecomposition().solve(rhs).head(f);
  double slope = 0, step = 1;
  Eigen::Index blocking = -1;  // the variable whose bound stops the step short of the minimum
  for (Eigen::Index u = 0; u < f; ++u) {
    const std::size_t i = free[static_cast<std::size_t>(u)];
    slope += g[i] * p(u);
    const double room = p(u) > 0 ? (upper[i] - a[i]) / p(u) : p(u) < 0 ? -a[i] / p(u) : step;
    if (room < step) {
      step = room;
      blocking = u;
    }
  }
  const double curvature = p.dot(m.topLeftCorner(f, f) * p);
  if (!(slope < 0) || !(step > 0) || step * slope + step * step * curvature / 2 >= 0) return false;
  Eigen::VectorXd change(f);
  for (Eigen::Index u = 0; u < f; ++u) {
    const std::size_t i = free[static_cast<std::size_t>(u)];
    double moved = std::clamp(a[i] + step * p(u), 0.0, upper[i]);
    if (u == blocking) moved = p(u) > 0 ? upper[i] : 0.0;
    change(u) = moved - a[i];
    a[i] = moved;
  }
  for (std::size_t t = 0; t < a.size(); ++t) {
    double dot = 0;
    for (Eigen::Index u = 0; u < f; ++u) {
      const std::size_t i = free[static_cast<std::size_t>(u)];
      dot += y[i] * k(static_cast<Eigen::Index>(t), static_cast<Eigen::Index>(i)) * change(u);
    }
    g[t] += y[t] * dot;
  }
  return blocking >= 0;
}

// min 1/2 a'Qa - e'a subject to 0 <= a_i <= upper_i and y'a = 0, where
// Q_ij = y_i y_j K_ij. g is the gradient Qa - e.
Dual SolveBinary(const Eigen::MatrixXd& k, const std::vector<double>& y, const std::vector<double>& upper,
                 double tolerance) {
  const std::size_t l = y.size();
  std::vector<double> a(l, 0.0), g(l, -1.0);
  // I_up: variables free to move so that y_t a_t grows; I_low: so it shrinks.
  auto in_up = [&](std::size_t t) { return y[t] > 0 ? a[t] < upper[t] : a[t] > 0; };
  auto in_low = [&](std::size_t t) { return y[t] > 0 ? a[t] > 0 : a[t] < upper[t]; };
  const std::size_t max_iterations = std::max<std::size_t>(10000000, 100 * l);
  for (std::size_t iteration = 0; iteration < max_iterations; ++iteration) {
    if (iteration > 0 && iteration % kNewtonEvery == 0) {
      for (std::size_t r = 0; r < l && NewtonOnFree(k, y, upper, a, g); ++r) {
      }
    }
    double gmax = -kInf;
    std::size_t i = l;
    for (std::size_t t = 0; t < l; ++t) {
      if (in_up(t) && -y[t] * g[t] >= gmax) {
        gmax = -y[t] * g[t];
        i = t;
      }
    }
    if (i == l) break;
    double gmax2 = -kInf, best = kInf;
    std::size_t j = l;
    for (std::size_t t = 0; t < l; ++t) {
      if (!in_low(t)) continue;
      gmax2 = std::max(gmax2, y[t] * g[t]);
      const double b = gmax + y[t] * g[t];
      if (b <= 0) continue;
      double curvature = k(i, i) + k(t, t) - 2 * k(i, t);
      if (curvature <= 0) curvature = kTau;
      if (-(b * b) / curvature <= best) {
        best = -(b * b) / curvature;
        j = t;
      }
    }
    if (gmax + gmax2 < tolerance || j == l) break;
    // Move a_i by y_i step and a_j by -y_j step (y'a stays 0), as far as the
    // minimum along that line or the first bound.
    double curvature = k(i, i) + k(j, j) - 2 * k(i, j);
    if (curvature <= 0) curvature = kTau;
    const double room_i = y[i] > 0 ? upper[i] - a[i] : a[i];
    const double room_j = y[j] > 0 ? a[j] : upper[j] - a[j];
    const double step = std::min({(gmax + y[j] * g[j]) / curvature, room_i, room_j});
    a[i] = step == room_i ? (y[i] > 0 ? upper[i] : 0.0) : a[i] + y[i] * step;
    a[j] = step == room_j ? (y[j] > 0 ? 0.0 : upper[j]) : a[j] - y[j] * step;
    for (std::size_t t = 0; t < l; ++t) g[t] += y[t] * step * (k(t, i) - k(t, j));
  }
  // The bias: the mean of y_t g_t over free variables, else the middle of
  // the interval the bounded ones leave.
  double upper_bound = kInf, lower_bound = -kInf, free_sum = 0;
  std::size_t free = 0;
  for (std::size_t t = 0; t < l; ++t) {
    const double yg = y[t] * g[t];
    if (a[t] >= upper[t]) {
      if (y[t] < 0) upper_bound = std::min(upper_bound, yg);
      else lower_bound = std::max(lower_bound, yg);
    } else if (a[t] <= 0) {
      if (y[t] > 0) upper_bound = std::min(upper_bound, yg);
      else lower_bound = std::max(lower_bound, yg);
    } else {
      ++free;
      free_sum += yg;
    }
  }
  return {std::move(a), free > 0 ? free_sum / static_cast<double>(free) : (upper_bound + lower_bound) / 2};
}

}  // namespace

WeightedSvm WeightedSvm::Train(const Eigen::MatrixXd& kernel, const std::vector<std::uint32_t>& labels,
                               const std::vector<double>& weights, double c, double tolerance) {
  WeightedSvm svm;
  for (std::uint32_t label : labels) {
    if (std::find(svm.classes_.begin(), svm.classes_.end(), label) == svm.classes_.end()) {
      svm.classes_.push_back(label);
    }
  }
  for (std::size_t s = 0; s < svm.classes_.size(); ++s) {
    for (std::size_t r = s + 1; r < svm.classes_.size(); ++r) {
      Pair pair;
      std::vector<double> y, upper;
      for (std::size_t p = 0; p < labels.size(); ++p) {
        if (labels[p] != svm.classes_[s] && labels[p] != svm.classes_[r]) continue;
        pair.points.push_back(p);
        y.push_back(labels[p] == svm.classes_[s] ? 1.0 : -1.0);
        upper.push_back(weights[p] * c);
      }
      const Eigen::MatrixXd k = kernel(pair.points, pair.points);
      Dual dual = SolveBinary(k, y, upper, tolerance);
      for (std::size_t u = 0; u < y.size(); ++u) pair.coef.push_back(y[u] * dual.alpha[u]);
      pair.rho = dual.rho;
      svm.pairs_.push_back(std::move(pair));
    }
  }
  return svm;
}

std::vector<double> WeightedSvm::DecisionValues(const Eigen::VectorXd& row) const {
  std::vector<double> values;
  for (const Pair& pair : pairs_) {
    double sum = 0;
    for (std::size_t u = 0; u < pair.points.size(); ++u) {
      sum += pair.coef[u] * row(static_cast<Eigen::Index>(pair.points[u]));
    }
    values.push_back(sum - pair.rho);
  }
  return values;
}

std::uint32_t WeightedSvm::Predict(const Eigen::VectorXd& row) const {
  if (classes_.size() == 1) return classes_[0];
  const std::vector<double> values = DecisionValues(row);
  std::vector<int> votes(classes_.size(), 0);
  std::size_t next = 0;
  for (std::size_t s = 0; s < classes_.size(); ++s) {
    for (std::size_t r = s + 1; r < classes_.size(); ++r) ++votes[values[next++] > 0 ? s : r];
  }
  return classes_[static_cast<std::size_t>(std::max_element(votes.begin(), votes.end()) - votes.begin())];
}

}  // namespace ldpgraph
