// The linear step of Gromov-Wasserstein's conditional gradient solved
// again and again: exact optimal transport between two uniform
// distributions (as UniformTransport) for a sequence of costs that change
// a little from one call to the next. The transportation simplex keeps its
// optimal basis (a spanning tree of n + m - 1 cells) between calls; the
// marginals never change, so the last basis is feasible for the next cost
// and only the pivots that the cost change calls for are made. A pivot
// prices one block of cells (block search, about sqrt(n m) of them), not
// all of them, walks the cycle the entering cell closes in the tree and
// re-hangs the subtree the leaving cell cut off, updating only its duals.
// The first call starts from the north-west corner rule on rows and
// columns sorted by their mean cost (optimal outright for the rank-one
// costs of GW's product start); a call that runs out of pivots
// (degenerate stalling, or a cost far from the last) is solved by the
// primal-dual method instead and its plan made a basis for the next.
#ifndef LDPGRAPH_DAEMON_GW_TRANSPORT_SIMPLEX_H_
#define LDPGRAPH_DAEMON_GW_TRANSPORT_SIMPLEX_H_

#include <cstdint>
#include <vector>

#include <Eigen/Core>

namespace ldpgraph {

class UniformTransportSimplex {
 public:
  // `budget`: pivots per node (n + m) a warm start may make before the
  // call is solved cold instead.
  UniformTransportSimplex(int n, int m, int budget = 8);

  // An optimal T for `cost` (n x m, finite entries: the caller checks),
  // rows summing to 1/n and columns to 1/m, at a vertex of the polytope.
  Eigen::MatrixXd Solve(const Eigen::MatrixXd& cost);

  // Pivots made by the calls so far, and the calls the primal-dual method
  // solved (those that ran out of pivots).
  std::int64_t pivots() const { return pivots_; }
  int cold_solves() const { return cold_solves_; }

 private:
  // Tree nodes: rows 0..n-1, columns n..n+m-1. A cell is i + j n, its
  // index in Eigen's column-major storage.
  int Row(int cell) const { return cell % n_; }
  int Column(int cell) const { return n_ + cell / n_; }
  void NorthWestCorner(const Eigen::MatrixXd& cost);
  void BasisFrom(const Eigen::MatrixXd& plan);
  void CancelCycle(int cell);
  void Link(int cell);
  void Unlink(int cell);
  void Hang(int node, int parent_cell, const Eigen::MatrixXd& cost);
  bool Pivot(const Eigen::MatrixXd& cost, double eps);
  Eigen::MatrixXd Plan() const;

  int n_, m_;
  std::int64_t budget_;
  bool started_ = false;  // a basis is in place
  std::vector<std::int64_t> flow_;          // per cell, in units of 1/(n m)
  std::vector<char> basic_;                 // per cell
  std::vector<std::vector<int>> adjacent_;  // per node: its basic cells
  std::vector<int> parent_, parent_cell_, depth_, order_;
  std::vector<double> dual_;                // rows: u_i, columns: v_j; c_ij = u_i + v_j on basic cells
  std::vector<int> cycle_minus_, cycle_plus_;
  std::vector<char> minus_from_row_;  // per cycle_minus_ cell: on the entering row's path
  int cursor_ = 0;  // where block search resumes
  std::int64_t pivots_ = 0;
  int cold_solves_ = 0;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_GW_TRANSPORT_SIMPLEX_H_
