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

// Indices 0..k-1 in ascending order of `key`.
std::vector<int> Ascending(const Eigen::VectorXd& key) {
  std::vector<int> order(static_cast<std::size_t>(key.size()));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return key[x] < key[y]; });
  return order;
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
  adjacent_[static_cast<std::size_t>(Row(cell))].push_back(cell);
  adjacent_[static_cast<std::size_t>(Column(cell))].push_back(cell);
}

void UniformTransportSimplex::Unlink(int cell) {
  basic_[static_cast<std::size_t>(cell)] = 0;
  for (const int node : {Row(cell), Column(cell)}) {
    std::vector<int>& a = adjacent_[static_cast<std::size_t>(node)];
    a.erase(std::find(a.begin(), a.end(), cell));
  }
}

// The north-west corner rule (each row ships m units, each column takes
// n) walked over rows and columns in ascending order of their mean cost:
// a staircase of n + m - 1 cells, a basis. For a cost -r_i s_j it pairs
// large r with large s, which is optimal.
void UniformTransportSimplex::NorthWestCorner(const Eigen::MatrixXd& cost) {
  const std::vector<int> rows = Ascending(cost.rowwise().mean()), cols = Ascending(cost.colwise().mean().transpose());
  for (auto& a : adjacent_) a.clear();
  std::fill(basic_.begin(), basic_.end(), 0);
  std::fill(flow_.begin(), flow_.end(), 0);
  std::int64_t supply = m_, demand = n_;
  for (int r = 0, c = 0; r < n_ && c < m_;) {
    const int cell = rows[static_cast<std::size_t>(r)] + cols[static_cast<std::size_t>(c)] * n_;
    const std::int64_t f = std::min(supply, demand);
    flow_[static_cast<std::size_t>(cell)] = f;
    Link(cell);
    supply -= f;
    demand -= f;
    // When both run out, step down a row: the next cell carries 0 and
    // keeps the staircase connected.
    if (supply == 0 && r + 1 < n_) {
      ++r;
      supply = m_;
    } else {
      ++c;
      demand = n_;
    }
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
  for (int cell = 0; cell < n_ * m_; ++cell) {
    flow_[static_cast<std::size_t>(cell)] = std::llround(plan.data()[cell] * units);
  }
  for (int cell = 0; cell < n_ * m_; ++cell) {
    if (flow_[static_cast<std::size_t>(cell)] == 0) continue;
    const int a = Find(root, Row(cell)), b = Find(root, Column(cell));
    if (a != b) {
      root[static_cast<std::size_t>(a)] = b;
      Link(cell);
      continue;
    }
    CancelCycle(cell);
  }
  for (int cell = 0; cell < n_ * m_; ++cell) {
    const int a = Find(root, Row(cell)), b = Find(root, Column(cell));
    if (a == b) continue;
    root[static_cast<std::size_t>(a)] = b;
    Link(cell);
  }
}

// `cell` has flow and its row and column are already joined in the forest:
// walk the forest's path between them, then move flow against the cell
// (it loses, the path's cells alternately gain and lose) until the cell or
// a losing path cell is empty. A path cell that empties leaves the forest
// and the cell joins it: the trees' node sets stay the same.
void UniformTransportSimplex::CancelCycle(int cell) {
  const int from = Row(cell), to = Column(cell);
  std::fill(parent_cell_.begin(), parent_cell_.end(), -2);
  parent_cell_[static_cast<std::size_t>(from)] = -1;
  order_.assign(1, from);
  for (std::size_t k = 0; k < order_.size() && parent_cell_[static_cast<std::size_t>(to)] == -2; ++k) {
    const int v = order_[k];
    for (const int c : adjacent_[static_cast<std::size_t>(v)]) {
      const int w = v < n_ ? Column(c) : Row(c);
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

// Hangs `node` and everything beyond it (away from its parent cell) from
// that cell: parents, depths and duals, with c_ij = u_i + v_j on every
// basic cell and u = 0 at the root (row 0, parent cell -1). Each dual is
// computed from its parent's, never shifted, so rounding does not build up
// over thousands of pivots.
void UniformTransportSimplex::Hang(int node, int parent_cell, const Eigen::MatrixXd& cost) {
  const auto at = [](std::vector<int>& v, int k) -> int& { return v[static_cast<std::size_t>(k)]; };
  at(parent_cell_, node) = parent_cell;
  if (parent_cell < 0) {
    at(parent_, node) = -1;
    at(depth_, node) = 0;
    dual_[static_cast<std::size_t>(node)] = 0;
  } else {
    const int up = node < n_ ? Column(parent_cell) : Row(parent_cell);
    at(parent_, node) = up;
    at(depth_, node) = at(depth_, up) + 1;
    dual_[static_cast<std::size_t>(node)] = cost.data()[parent_cell] - dual_[static_cast<std::size_t>(up)];
  }
  order_.assign(1, node);
  for (std::size_t k = 0; k < order_.size(); ++k) {
    const int v = order_[k];
    for (const int cell : adjacent_[static_cast<std::size_t>(v)]) {
      if (cell == at(parent_cell_, v)) continue;
      const int w = v < n_ ? Column(cell) : Row(cell);
      at(parent_, w) = v;
      at(parent_cell_, w) = cell;
      at(depth_, w) = at(depth_, v) + 1;
      dual_[static_cast<std::size_t>(w)] = cost.data()[cell] - dual_[static_cast<std::size_t>(v)];
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
  // The cursor walks the cells in storage order: row i of column j, with
  // no division per cell.
  int i = cursor_ % n_, j = cursor_ / n_;
  const double* column_cost = cost.data() + static_cast<std::ptrdiff_t>(j) * n_;
  for (int scanned = 0; scanned < cells;) {
    const int end = std::min(cells, scanned + block);
    for (; scanned < end; ++scanned) {
      const int cell = i + j * n_;
      if (!basic_[static_cast<std::size_t>(cell)]) {
        const double reduced =
            column_cost[i] - dual_[static_cast<std::size_t>(i)] - dual_[static_cast<std::size_t>(n_ + j)];
        if (reduced < best) best = reduced, entering = cell;
      }
      if (++i == n_) {
        i = 0;
        if (++j == m_) j = 0;
        column_cost = cost.data() + static_cast<std::ptrdiff_t>(j) * n_;
      }
    }
    if (entering >= 0) break;
  }
  cursor_ = i + j * n_;
  if (entering < 0) return false;

  // The cycle the entering cell closes: the tree paths from its row and its
  // column up to where they meet. Counting from either end, the 1st, 3rd,
  // ... cells lose flow and the 2nd, 4th, ... gain it.
  cycle_minus_.clear();
  cycle_plus_.clear();
  minus_from_row_.clear();
  int a = Row(entering), b = Column(entering);
  int steps_a = 0, steps_b = 0;
  while (a != b) {
    const bool from_row = depth_[static_cast<std::size_t>(a)] >= depth_[static_cast<std::size_t>(b)];
    int& v = from_row ? a : b;
    const int cell = parent_cell_[static_cast<std::size_t>(v)];
    if (++(from_row ? steps_a : steps_b) % 2) {
      cycle_minus_.push_back(cell);
      minus_from_row_.push_back(from_row);
    } else {
      cycle_plus_.push_back(cell);
    }
    v = parent_[static_cast<std::size_t>(v)];
  }
  std::size_t leaving = 0;
  for (std::size_t k = 1; k < cycle_minus_.size(); ++k) {
    if (flow_[static_cast<std::size_t>(cycle_minus_[k])] < flow_[static_cast<std::size_t>(cycle_minus_[leaving])]) {
      leaving = k;
    }
  }
  const int leaving_cell = cycle_minus_[leaving];
  const std::int64_t theta = flow_[static_cast<std::size_t>(leaving_cell)];
  for (const int cell : cycle_minus_) flow_[static_cast<std::size_t>(cell)] -= theta;
  for (const int cell : cycle_plus_) flow_[static_cast<std::size_t>(cell)] += theta;
  flow_[static_cast<std::size_t>(entering)] += theta;
  Unlink(leaving_cell);
  Link(entering);
  // The leaving cell lay on the path from the entering cell's row or from
  // its column: that end, and the subtree cut off with it, now hangs from
  // the entering cell.
  Hang(minus_from_row_[leaving] ? Row(entering) : Column(entering), entering, cost);
  return true;
}

Eigen::MatrixXd UniformTransportSimplex::Plan() const {
  Eigen::MatrixXd t(n_, m_);
  const double scale = 1.0 / (static_cast<double>(n_) * m_);
  for (int cell = 0; cell < n_ * m_; ++cell) {
    t.data()[cell] = static_cast<double>(flow_[static_cast<std::size_t>(cell)]) * scale;
  }
  return t;
}

Eigen::MatrixXd UniformTransportSimplex::Solve(const Eigen::MatrixXd& cost) {
  if (!started_) NorthWestCorner(cost);
  started_ = true;
  // A warm start pays off only while the cost moved a little: past a few
  // pivots per node the primal-dual method from scratch is cheaper, and
  // the budget also ends any degenerate stalling.
  const double eps = 1e-11 * cost.cwiseAbs().maxCoeff();
  Hang(0, -1, cost);
  std::int64_t made = 0;
  while (made < budget_ && Pivot(cost, eps)) ++made;
  pivots_ += made;
  if (made < budget_) return Plan();
  ++cold_solves_;
  BasisFrom(UniformTransport(cost));
  return Plan();
}

}  // namespace ldpgraph
