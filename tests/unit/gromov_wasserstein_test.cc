// Gromov-Wasserstein (gw/): the exact transport step against an
// independent optimality check, and the (F)GW solver against exhaustive
// search over permutations, relabelled copies, its own objective computed
// the O(n^2 m^2) way, and every bad input.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "gw/gromov_wasserstein.h"
#include "gw/transport_lp.h"
#include "ldpgraph/random_source.h"
#include "ldpgraph/samplers.h"

using namespace ldpgraph;

namespace {

Eigen::MatrixXd RandomCost(int n, int m, RandomSource& rng) {
  Eigen::MatrixXd c(n, m);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < m; ++j) c(i, j) = UniformUnit(rng);
  }
  return c;
}

// Euclidean distances of n random points in the plane.
Eigen::MatrixXd PointCloud(int n, RandomSource& rng) {
  Eigen::MatrixXd p(n, 2);
  for (int i = 0; i < n; ++i) p.row(i) << UniformUnit(rng), UniformUnit(rng);
  Eigen::MatrixXd c(n, n);
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < n; ++k) c(i, k) = (p.row(i) - p.row(k)).norm();
  }
  return c;
}

// The objective summed term by term, O(n^2 m^2).
double BruteObjective(const Eigen::MatrixXd& c, const Eigen::MatrixXd& d, const Eigen::MatrixXd& t) {
  double v = 0;
  for (int i = 0; i < c.rows(); ++i)
    for (int k = 0; k < c.rows(); ++k)
      for (int j = 0; j < d.rows(); ++j)
        for (int l = 0; l < d.rows(); ++l) v += std::pow(c(i, k) - d(j, l), 2) * t(i, j) * t(k, l);
  return v;
}

// The best permutation's objective, by trying them all.
double BestPermutation(const Eigen::MatrixXd& c, const Eigen::MatrixXd& d) {
  const int n = static_cast<int>(c.rows());
  std::vector<int> s(static_cast<std::size_t>(n));
  std::iota(s.begin(), s.end(), 0);
  double best = INFINITY;
  do {
    double v = 0;
    for (int i = 0; i < n; ++i)
      for (int k = 0; k < n; ++k) v += std::pow(c(i, k) - d(s[static_cast<std::size_t>(i)], s[static_cast<std::size_t>(k)]), 2);
    best = std::min(best, v / (n * n));
  } while (std::next_permutation(s.begin(), s.end()));
  return best;
}

// Optimal iff the residual graph has no negative cycle (Bellman-Ford).
bool TransportIsOptimal(const Eigen::MatrixXd& cost, const Eigen::MatrixXd& t) {
  const int n = static_cast<int>(cost.rows()), m = static_cast<int>(cost.cols());
  std::vector<double> dist(static_cast<std::size_t>(n + m), 0.0);
  for (int round = 0; round <= n + m; ++round) {
    bool changed = false;
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < m; ++j) {
        double& to_j = dist[static_cast<std::size_t>(n + j)];
        if (dist[static_cast<std::size_t>(i)] + cost(i, j) < to_j - 1e-12) {
          to_j = dist[static_cast<std::size_t>(i)] + cost(i, j);
          changed = true;
        }
        double& to_i = dist[static_cast<std::size_t>(i)];
        if (t(i, j) > 1e-12 && dist[static_cast<std::size_t>(n + j)] - cost(i, j) < to_i - 1e-12) {
          to_i = dist[static_cast<std::size_t>(n + j)] - cost(i, j);
          changed = true;
        }
      }
    }
    if (!changed) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("UniformTransport.IsACouplingAndOptimal") {
  SeededRandomSource rng(1);
  for (auto [n, m] : {std::pair<int, int>{1, 1}, {3, 3}, {4, 7}, {9, 2}, {12, 12}, {20, 31}}) {
    const Eigen::MatrixXd cost = RandomCost(n, m, rng);
    const Eigen::MatrixXd t = UniformTransport(cost);
    INFO(n << " x " << m);
    CHECK((t.rowwise().sum().array() - 1.0 / n).abs().maxCoeff() < 1e-12);
    CHECK((t.colwise().sum().array() - 1.0 / m).abs().maxCoeff() < 1e-12);
    CHECK(t.minCoeff() >= 0);
    CHECK(TransportIsOptimal(cost, t));
  }
  // Square: the LP's optimum is the best assignment.
  const Eigen::MatrixXd cost = RandomCost(6, 6, rng);
  std::vector<int> s(6);
  std::iota(s.begin(), s.end(), 0);
  double best = INFINITY;
  do {
    double v = 0;
    for (int i = 0; i < 6; ++i) v += cost(i, s[static_cast<std::size_t>(i)]);
    best = std::min(best, v / 6);
  } while (std::next_permutation(s.begin(), s.end()));
  CHECK((UniformTransport(cost).array() * cost.array()).sum() == doctest::Approx(best).epsilon(1e-12));
}

TEST_CASE("GromovWasserstein.MatchesExhaustiveSearchOnSmallPointClouds") {
  SeededRandomSource rng(2);
  int checked = 0;
  for (int n = 2; n <= 7; ++n) {
    for (int trial = 0; trial < 6; ++trial) {
      const Eigen::MatrixXd c = PointCloud(n, rng), d = PointCloud(n, rng);
      Result<GwResult> r = GromovWasserstein(c, d);
      REQUIRE(r.ok());
      const double best = BestPermutation(c, d);
      INFO("n = " << n << ", trial " << trial);
      // Euclidean distances are of negative type: the objective is concave
      // on the couplings and its minimum is a permutation's.
      CHECK(r->value >= best - 1e-6);
      CHECK(r->value <= best + 1e-6);
      CHECK(r->value == doctest::Approx(BruteObjective(c, d, r->coupling)).epsilon(1e-9));
      ++checked;
    }
  }
  CHECK(checked == 36);
}

TEST_CASE("GromovWasserstein.ARelabelledCopyIsAtZero") {
  SeededRandomSource rng(3);
  for (int n : {5, 12, 30}) {
    const Eigen::MatrixXd c = PointCloud(n, rng);
    std::vector<int> perm(static_cast<std::size_t>(n));
    std::iota(perm.begin(), perm.end(), 0);
    for (int i = n - 1; i > 0; --i) std::swap(perm[static_cast<std::size_t>(i)], perm[UniformBelow(rng, static_cast<std::uint64_t>(i) + 1)]);
    Eigen::MatrixXd d(n, n);
    for (int i = 0; i < n; ++i)
      for (int k = 0; k < n; ++k) d(i, k) = c(perm[static_cast<std::size_t>(i)], perm[static_cast<std::size_t>(k)]);
    Result<GwResult> r = GromovWasserstein(c, d);
    REQUIRE(r.ok());
    CHECK(r->value < 1e-9);
  }
}

TEST_CASE("GromovWasserstein.DifferentSizesAndFusedCosts") {
  SeededRandomSource rng(4);
  const Eigen::MatrixXd c = PointCloud(6, rng), d = PointCloud(9, rng);
  Result<GwResult> r = GromovWasserstein(c, d);
  REQUIRE(r.ok());
  CHECK((r->coupling.rowwise().sum().array() - 1.0 / 6).abs().maxCoeff() < 1e-12);
  CHECK((r->coupling.colwise().sum().array() - 1.0 / 9).abs().maxCoeff() < 1e-12);
  CHECK(r->value == doctest::Approx(BruteObjective(c, d, r->coupling)).epsilon(1e-9));
  CHECK(r->value > 0);
  // alpha = 0: optimal transport on the feature cost alone.
  const Eigen::MatrixXd m = RandomCost(6, 9, rng);
  Result<GwResult> ot = GromovWasserstein(c, d, m, 0.0);
  REQUIRE(ot.ok());
  CHECK(ot->value == doctest::Approx((UniformTransport(m).array() * m.array()).sum()).epsilon(1e-9));
  // In between: the fused objective of its own coupling.
  Result<GwResult> fused = GromovWasserstein(c, d, m, 0.5);
  REQUIRE(fused.ok());
  const double expected = 0.5 * (m.array() * fused->coupling.array()).sum() + 0.5 * BruteObjective(c, d, fused->coupling);
  CHECK(fused->value == doctest::Approx(expected).epsilon(1e-9));
}

TEST_CASE("GromovWasserstein.RefusesBadInput") {
  const Eigen::MatrixXd ok = Eigen::MatrixXd::Ones(3, 3);
  Eigen::MatrixXd nan = ok, inf = ok;
  nan(1, 2) = NAN;
  inf(0, 0) = INFINITY;
  CHECK(GromovWasserstein(Eigen::MatrixXd(), ok).status().code() == StatusCode::kInvalidArgument);
  CHECK(GromovWasserstein(ok, Eigen::MatrixXd::Ones(2, 3)).status().code() == StatusCode::kInvalidArgument);
  Status s = GromovWasserstein(nan, ok).status();
  CHECK(s.code() == StatusCode::kInvalidArgument);
  CHECK(s.message() == "C(1, 2) is not finite");
  CHECK(GromovWasserstein(ok, inf).status().message() == "D(0, 0) is not finite");
  CHECK(GromovWasserstein(ok, ok, Eigen::MatrixXd::Ones(3, 2), 0.5).status().code() == StatusCode::kInvalidArgument);
  CHECK(GromovWasserstein(ok, ok, nan, 0.5).status().message() == "M(1, 2) is not finite");
  CHECK(GromovWasserstein(ok, ok, Eigen::MatrixXd(), 1.5).status().code() == StatusCode::kInvalidArgument);
  CHECK(GromovWasserstein(ok, ok, Eigen::MatrixXd(), NAN).status().code() == StatusCode::kInvalidArgument);
}
