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
#include "gw/transport_simplex.h"
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
  for (const auto& size : {std::pair<int, int>{1, 1}, {3, 3}, {4, 7}, {9, 2}, {12, 12}, {20, 31}}) {
    const int n = size.first;  // not a structured binding: INFO captures it
    const int m = size.second;
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

// The simplex is fed what conditional gradient feeds it: a cost, then the
// same cost moved a little or a lot, many times over. Every answer must be
// a vertex (at most n + m - 1 cells), feasible and optimal by the
// independent check, and as cheap as the primal-dual method's; the warm
// path must really run (pivots, a single cold start for small moves).
// Integer costs in {0, 1, 2} make ties everywhere: degenerate pivots and
// primal-dual plans that are not vertices.
TEST_CASE("UniformTransportSimplex.WarmStartsStayOptimal") {
  SeededRandomSource rng(11);
  for (const auto& size :
       {std::pair<int, int>{1, 1}, {1, 5}, {5, 1}, {3, 3}, {4, 7}, {9, 2}, {12, 12}, {20, 31}, {40, 40}}) {
    const int n = size.first;  // not a structured binding: INFO captures it
    const int m = size.second;
    for (const bool ties : {false, true}) {
      UniformTransportSimplex lp(n, m);
      Eigen::MatrixXd cost = RandomCost(n, m, rng);
      if (ties) cost = (cost * 3).array().floor();
      const int calls = 25;
      for (int call = 0; call < calls; ++call) {
        INFO(n << " x " << m << (ties ? " with ties" : "") << ", call " << call);
        const Eigen::MatrixXd t = lp.Solve(cost);
        CHECK((t.rowwise().sum().array() - 1.0 / n).abs().maxCoeff() < 1e-12);
        CHECK((t.colwise().sum().array() - 1.0 / m).abs().maxCoeff() < 1e-12);
        CHECK(t.minCoeff() >= 0);
        CHECK((t.array() > 0).count() <= n + m - 1);
        CHECK(TransportIsOptimal(cost, t));
        const double primal_dual = (UniformTransport(cost).array() * cost.array()).sum();
        CHECK((t.array() * cost.array()).sum() == doctest::Approx(primal_dual).epsilon(1e-12));
        // Mostly small moves; every fifth call a new cost altogether.
        const Eigen::MatrixXd fresh = RandomCost(n, m, rng);
        if (call % 5 == 4) {
          cost = ties ? Eigen::MatrixXd((fresh * 3).array().floor()) : fresh;
        } else if (ties) {
          cost(static_cast<Eigen::Index>(UniformBelow(rng, static_cast<std::uint64_t>(n))),
               static_cast<Eigen::Index>(UniformBelow(rng, static_cast<std::uint64_t>(m)))) += 1;
        } else {
          cost += 0.05 * fresh;
        }
      }
      if (n > 1 && m > 1 && !ties) {
        CHECK(lp.pivots() > 0);
        CHECK(lp.cold_solves() < calls / 2);
      }
    }
  }
}

// With no pivots allowed every call is solved cold, and still right.
TEST_CASE("UniformTransportSimplex.OutOfPivotsSolvesCold") {
  SeededRandomSource rng(12);
  UniformTransportSimplex lp(15, 22, 0);
  for (int call = 0; call < 4; ++call) {
    const Eigen::MatrixXd cost = RandomCost(15, 22, rng);
    const Eigen::MatrixXd t = lp.Solve(cost);
    CHECK(TransportIsOptimal(cost, t));
    CHECK((t.array() > 0).count() <= 15 + 22 - 1);
  }
  CHECK(lp.cold_solves() == 4);
  CHECK(lp.pivots() == 0);
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

// Adjacency matrices of 32 nodes or more with few edges take the sparse
// products: the value the solver carries along must still be its
// coupling's objective summed term by term, plain and fused. (A relabelled
// copy of such a graph is not a fair check: sparse graphs' GW has local
// minima that every start here can fall into, dense products or not.)
TEST_CASE("GromovWasserstein.SparseAdjacencyMatchesItsObjective") {
  SeededRandomSource rng(5);
  auto ring_with_chords = [&](int n) {
    Eigen::MatrixXd a = Eigen::MatrixXd::Zero(n, n);
    for (int i = 0; i < n; ++i) a(i, (i + 1) % n) = a((i + 1) % n, i) = 1;
    for (int k = 0; k < n / 4; ++k) {
      const auto i = static_cast<Eigen::Index>(UniformBelow(rng, static_cast<std::uint64_t>(n)));
      const auto j = static_cast<Eigen::Index>(UniformBelow(rng, static_cast<std::uint64_t>(n)));
      if (i != j) a(i, j) = a(j, i) = 1;
    }
    return a;
  };
  const Eigen::MatrixXd c = ring_with_chords(40), d = ring_with_chords(36);
  Result<GwResult> r = GromovWasserstein(c, d, Eigen::MatrixXd(), 1.0, GwOptions::ProductStartOnly());
  REQUIRE(r.ok());
  CHECK(r->iterations > 1);
  CHECK(r->value == doctest::Approx(BruteObjective(c, d, r->coupling)).epsilon(1e-9));
  const Eigen::MatrixXd m = RandomCost(40, 36, rng);
  Result<GwResult> fused = GromovWasserstein(c, d, m, 0.5, GwOptions::ProductStartOnly());
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
