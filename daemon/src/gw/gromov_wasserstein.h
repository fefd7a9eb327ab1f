// Gromov-Wasserstein discrepancy between two graphs given as intra-distance
// matrices (seed 000, ALGORITHMS.md section 5), uniform node weights,
// square loss:
//   GW(C, D) = min over couplings T of sum_ijkl (C_ik - D_jl)^2 T_ij T_kl
// and fused GW with a feature cost M (n x m) and a trade-off alpha:
//   FGW = min_T (1 - alpha) <M, T> + alpha sum_ijkl (C_ik - D_jl)^2 T_ij T_kl.
// Solved by conditional gradient (Frank-Wolfe) with an exact line search,
// the standard method (Peyre et al. 2016, Titouan et al. 2019), in its
// pairwise form (Lacoste-Julien and Jaggi 2015: weight moves from the
// worst active vertex to the LP's): the quadratic term is evaluated as
// const - 2 <C T D, T>, so an iteration costs O(n^2 m + m^2 n) at most
// (less for sparse structures), never O(n^2 m^2); the linear step is
// exact optimal transport (transport_simplex.h). GW is not convex: the
// solver is a local search started from the product coupling and more
// starts (the best is kept). Between graphs of equal size a result that is
// a permutation is improved further by swapping pairs of partners (the
// quadratic assignment problem's 2-exchange, O(n) per swap) and descending
// again.
#ifndef LDPGRAPH_DAEMON_GW_GROMOV_WASSERSTEIN_H_
#define LDPGRAPH_DAEMON_GW_GROMOV_WASSERSTEIN_H_

#include <cstdint>
#include <vector>

#include <Eigen/Core>

#include "ldpgraph/status.h"

namespace ldpgraph {

struct GwOptions {
  int max_iterations = 1000;
  double tolerance = 1e-9;  // stop when an iteration improves the objective by less (relative)
  // Starts besides the product coupling: the identity-like coupling and
  // couplings that sort both graphs' nodes by their mean distance (a
  // deterministic heuristic); 0: the product coupling only.
  int extra_starts = 2;
  // Random starts on top (random orders of the nodes, matched in
  // proportion), from `seed`: the same pair always gives the same answer.
  // -1: by size, clamp(4096 / (n m), 4, 64): small pairs are cheap and
  // their local optima many; large pairs get few.
  int random_starts = -1;
  std::uint64_t seed = 0;

  // The product coupling only (with the swap moves): what `ldpgraph gw`
  // runs by default, and the daemon's GW routes and `bench gw` with it.
  static GwOptions ProductStartOnly() {
    GwOptions o;
    o.extra_starts = 0;
    o.random_starts = 0;
    return o;
  }
};

struct GwResult {
  double value = 0;           // the (F)GW objective at `coupling`
  Eigen::MatrixXd coupling;   // n x m, rows sum to 1/n, columns to 1/m
  int iterations = 0;         // of the best start
};

// `c` (n x n) and `d` (m x m): symmetric intra-distances. `features`:
// empty, or the n x m feature cost M of FGW; `alpha` in [0, 1] weighs the
// structure (1: plain GW). Errors: kInvalidArgument for an empty or
// non-square matrix, a NaN or infinite entry (naming the matrix and the
// entry), a feature cost of the wrong size, or alpha outside [0, 1].
Result<GwResult> GromovWasserstein(const Eigen::MatrixXd& c, const Eigen::MatrixXd& d,
                                   const Eigen::MatrixXd& features = Eigen::MatrixXd(), double alpha = 1.0,
                                   const GwOptions& options = {});

// The coupling of uniform distributions over rows.size() and cols.size()
// nodes that matches the k-th node of `rows` with the k-th of `cols` in
// proportion (the north-west corner rule on the two orders): a start for
// the solver, or a way to carry a graph over to another number of nodes.
Eigen::MatrixXd SortedCoupling(const std::vector<int>& rows, const std::vector<int>& cols);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_GW_GROMOV_WASSERSTEIN_H_
