#include "gw/transport_simplex.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "gw/transport_lp.h"

namespace ldpgraph {
namespace {

int Find(std::vector<int>& root, int v) {
  while (root[static_cast<std::size_t>(v)] != v) {
    root[static_cast<std::size_t>(v)] = root[static_cast<std::size_t>(root[static_cast<std::size_t>(v)])];
    v = root[static_cast<std::size_t>(v)];
  }
  return v;
}

}  // namespace

UniformTransportSimplex::UniformTransportSimplex(int n, int m, int budget)
    : n_(n),
      m_(m),
      budget_(static_cast<std::int64_t>(budget) * (n + m)),
      flow_(static_cast<std::size_t>(n) * static_cast<std::size_t>(m)),
      basic_(flow_.size()),
      adjacent_(static_cast<std::size_t>(n + m)),
      parent_(static_cast<std::size_t>(n + m)),
      parent_cell_(static_cast<std::size_t>(n + m)),
      depth_(static_cast<std::size_t>(n + m)),
      dual_(static_cast<std::size_t>(n + m)) {}

void UniformTransportSimplex::Link(int cell) {
  basic_[static_cast<std::size_t>(cell)] = 1;
  adjacent_[static_cast<std::size_t>(cell / m_)].push_back(cell);
  adjacent_[static_cast<std::size_t>(n_ + cell % m_)].push_back(cell);
}

void UniformTransportSimplex::Unlink(int cell) {
  basic_[static_cast<std::size_t>(cell)] = 0;
  for (const int node : {cell / m_, n_ + cell % m_}) {
    std::vector<int>& a = adjacent_[static_cast<std::size_t>(node)];
    a.erase(std::find(a.begin(), a.end(), cell));
  }
}

// A basis from an optimal plan of the primal-dual method. Its cells can
// close cycles (the blocking flow may leave an optimal plan that is not a
// vertex); every such cycle costs 0 at an optimum, so flow is moved around
// it until one of its cells empties, which leaves an optimal plan on a
// forest. Zero-flow cells then join the trees into one spanning tree.
void UniformTransportSimplex::BasisFrom(const Eigen::MatrixXd& plan) {
  const double units = static_cast<double>(n_) * m_;
  std::vector<int> root(static_cast<std::size_t>(n_ + m_));
  std::iota(root.begin(), root.end(), 0);
  for (auto& a : adjacent_) a.clear();
  std::fill(basic_.begin(), basic_.end(), 0);
  for (int i = 0; i < n_; ++i) {
    for (int j = 0; j < m_; ++j) flow_[static_cast<std::size_t>(Cell(i, j))] = std::llround(plan(i, j) * units);
  }
  for (int cell = 0; cell < n_ * m_; ++cell) {
    if (flow_[static_cast<std::size_t>(cell)] == 0) continue;
    const int i = cell / m_, j = cell % m_;
    const int a = Find(root, i), b = Find(root, n_ + j);
    if (a != b) {
      root[static_cast<std::size_t>(a)] = b;
      Link(cell);
      continue;
    }
    CancelCycle(cell);
  }
  for (int i = 0; i < n_; ++i) {
    for (int j = 0; j < m_; ++j) {
      const int a = Find(root, i), b = Find(root, n_ + j);
      if (a == b) continue;
      root[static_cast<std::size_t>(a)] = b;
      Link(Cell(i, j));
    }
  }
  has_basis_ = true;
}

// `cell` has flow and its row and column are already joined in the forest:
// walk the forest's path between them, then move flow against the cell
// (it loses, the path's cells alternately gain and lose) until the cell or
// a losing path cell is empty. A path cell that empties leaves the forest
// and the cell joins it: the trees' node sets stay the same.
void UniformTransportSimplex::CancelCycle(int cell) {
  const int from = cell / m_, to = n_ + cell % m_;
  std::fill(parent_cell_.begin(), parent_cell_.end(), -2);
  parent_cell_[static_cast<std::size_t>(from)] = -1;
  order_.assign(1, from);
  for (std::size_t k = 0; k < order_.size() && parent_cell_[static_cast<std::size_t>(to)] == -2; ++k) {
    const int v = order_[k];
    for (const int c : adjacent_[static_cast<std::size_t>(v)]) {
      const int w = v < n_ ? n_ + c % m_ : c / m_;
      if (parent_cell_[static_cast<std::size_t>(w)] != -2) continue;
      parent_cell_[static_cast<std::size_t>(w)] = c;
      parent_[static_cast<std::size_t>(w)] = v;
      order_.push_back(w);
    }
  }
  // From the column back to the row: the 1st, 3rd, ... path cells gain
  // (they touch the cell's row or column, which the cell stops serving).
  cycle_minus_.assign(1, cell);
  cycle_plus_.clear();
  int steps = 0;
  for (int v = to; v != from; v = parent_[static_cast<std::size_t>(v)]) {
    (++steps % 2 ? cycle_plus_ : cycle_minus_).push_back(parent_cell_[static_cast<std::size_t>(v)]);
  }
  int emptied = cell;
  for (const int c : cycle_minus_) {
    if (flow_[static_cast<std::size_t>(c)] < flow_[static_cast<std::size_t>(emptied)]) emptied = c;
  }
  const std::int64_t theta = flow_[static_cast<std::size_t>(emptied)];
  for (const int c : cycle_minus_) flow_[static_cast<std::size_t>(c)] -= theta;
  for (const int c : cycle_plus_) flow_[static_cast<std::size_t>(c)] += theta;
  if (emptied == cell) return;
  Unlink(emptied);
  Link(cell);
}

// Parents, depths and duals from the root (row 0, u_0 = 0): every basic
// cell has c_ij = u_i + v_j. Recomputed after each pivot rather than
// shifted, so rounding never accumulates over thousands of pivots.
void UniformTransportSimplex::Traverse(const Eigen::MatrixXd& cost) {
  order_.assign(1, 0);
  parent_[0] = -1;
  parent_cell_[0] = -1;
  depth_[0] = 0;
  dual_[0] = 0;
  for (std::size_t k = 0; k < order_.size(); ++k) {
    const int v = order_[k];
    for (const int cell : adjacent_[static_cast<std::size_t>(v)]) {
      if (cell == parent_cell_[static_cast<std::size_t>(v)]) continue;
      const int i = cell / m_, j = cell % m_;
      const int w = v < n_ ? n_ + j : i;
      parent_[static_cast<std::size_t>(w)] = v;
      parent_cell_[static_cast<std::size_t>(w)] = cell;
      depth_[static_cast<std::size_t>(w)] = depth_[static_cast<std::size_t>(v)] + 1;
      dual_[static_cast<std::size_t>(w)] = cost(i, j) - dual_[static_cast<std::size_t>(v)];
      order_.push_back(w);
    }
  }
}

// One pivot; false when no cell prices below -eps (the basis is optimal).
bool UniformTransportSimplex::Pivot(const Eigen::MatrixXd& cost, double eps) {
  const int cells = n_ * m_;
  const int block = std::max(16, static_cast<int>(std::sqrt(static_cast<double>(cells))));
  int entering = -1;
  double best = -eps;
  for (int scanned = 0; scanned < cells;) {
    const int end = std::min(cells, scanned + block);
    for (; scanned < end; ++scanned) {
      const int cell = cursor_;
      cursor_ = cursor_ + 1 == cells ? 0 : cursor_ + 1;
      if (basic_[static_cast<std::size_t>(cell)]) continue;
      const int i = cell / m_, j = cell % m_;
      const double reduced = cost(i, j) - dual_[static_cast<std::size_t>(i)] - dual_[static_cast<std::size_t>(n_ + j)];
      if (reduced < best) best = reduced, entering = cell;
    }
    if (entering >= 0) break;
  }
  if (entering < 0) return false;

  // The cycle the entering cell closes: the tree paths from its row and its
  // column up to where they meet. Counting from either end, the 1st, 3rd,
  // ... cells lose flow and the 2nd, 4th, ... gain it.
  cycle_minus_.clear();
  cycle_plus_.clear();
  int a = entering / m_, b = n_ + entering % m_;
  int steps_a = 0, steps_b = 0;
  while (a != b) {
    if (depth_[static_cast<std::size_t>(a)] >= depth_[static_cast<std::size_t>(b)]) {
      (++steps_a % 2 ? cycle_minus_ : cycle_plus_).push_back(parent_cell_[static_cast<std::size_t>(a)]);
      a = parent_[static_cast<std::size_t>(a)];
    } else {
      (++steps_b % 2 ? cycle_minus_ : cycle_plus_).push_back(parent_cell_[static_cast<std::size_t>(b)]);
      b = parent_[static_cast<std::size_t>(b)];
    }
  }
  int leaving = cycle_minus_.front();
  for (const int cell : cycle_minus_) {
    if (flow_[static_cast<std::size_t>(cell)] < flow_[static_cast<std::size_t>(leaving)]) leaving = cell;
  }
  const std::int64_t theta = flow_[static_cast<std::size_t>(leaving)];
  for (const int cell : cycle_minus_) flow_[static_cast<std::size_t>(cell)] -= theta;
  for (const int cell : cycle_plus_) flow_[static_cast<std::size_t>(cell)] += theta;
  flow_[static_cast<std::size_t>(entering)] += theta;
  Unlink(leaving);
  Link(entering);
  Traverse(cost);
  return true;
}

Eigen::MatrixXd UniformTransportSimplex::Plan() const {
  Eigen::MatrixXd t(n_, m_);
  const double scale = 1.0 / (static_cast<double>(n_) * m_);
  for (int i = 0; i < n_; ++i) {
    for (int j = 0; j < m_; ++j) t(i, j) = static_cast<double>(flow_[static_cast<std::size_t>(Cell(i, j))]) * scale;
  }
  return t;
}

Eigen::MatrixXd UniformTransportSimplex::Solve(const Eigen::MatrixXd& cost) {
  if (has_basis_) {
    // A warm start pays off only while the cost moved a little: past a few
    // pivots per node the primal-dual method from scratch is cheaper, and
    // the budget also ends any degenerate stalling.
    const double eps = 1e-11 * cost.cwiseAbs().maxCoeff();
    Traverse(cost);
    std::int64_t made = 0;
    while (made < budget_ && Pivot(cost, eps)) ++made;
    pivots_ += made;
    if (made < budget_) return Plan();
  }
  ++cold_solves_;
  BasisFrom(UniformTransport(cost));
  return Plan();
}

}  // namespace ldpgraph
