#include "gw/transport_lp.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace ldpgraph {
namespace {

// Min-cost flow on the complete bipartite graph, sources 0..n-1 (supply m
// each), sinks n..n+m-1 (demand n each), by the primal-dual method: each
// phase runs Dijkstra on reduced costs from every source with supply left,
// raises the potentials so that the shortest paths cost 0, and then pushes
// a blocking flow through the arcs of reduced cost 0 by depth-first search.
// A phase serves many augmenting paths, so there are few Dijkstra runs.
class Transport {
 public:
  explicit Transport(const Eigen::MatrixXd& cost)
      : c_(cost),
        rows_(cost),
        n_(static_cast<int>(cost.rows())),
        m_(static_cast<int>(cost.cols())),
        supply_(static_cast<std::size_t>(n_), m_),
        demand_(static_cast<std::size_t>(m_), n_),
        flow_(static_cast<std::size_t>(n_) * static_cast<std::size_t>(m_), 0),
        p_(static_cast<std::size_t>(n_ + m_), 0.0),
        dist_(static_cast<std::size_t>(n_ + m_)),
        parent_(static_cast<std::size_t>(n_ + m_)),
        done_(static_cast<std::size_t>(n_ + m_)),
        arc_(static_cast<std::size_t>(n_ + m_)),
        dead_(static_cast<std::size_t>(n_ + m_)),
        on_path_(static_cast<std::size_t>(n_ + m_)) {
    // Reduced costs >= 0 on every forward arc from the start: each sink's
    // potential the least c(i, j) (the sources' are 0).
    for (int j = 0; j < m_; ++j) {
      double least = std::numeric_limits<double>::infinity();
      for (int i = 0; i < n_; ++i) least = std::min(least, c_(i, j));
      p_[Sink(j)] = least;
    }
    eps_ = 1e-9 * std::max(1.0, c_.cwiseAbs().maxCoeff());
  }

  Eigen::MatrixXd Solve() {
    long long remaining = static_cast<long long>(n_) * m_;
    while (remaining > 0) {
      const int target = Dijkstra();
      remaining -= Augment(target);  // at least this path: progress whatever rounding does
      remaining -= BlockingFlow();
    }
    Eigen::MatrixXd t(n_, m_);
    const double scale = 1.0 / (static_cast<double>(n_) * m_);
    for (int i = 0; i < n_; ++i) {
      for (int j = 0; j < m_; ++j) t(i, j) = static_cast<double>(Flow(i, j)) * scale;
    }
    return t;
  }

 private:
  std::size_t Sink(int j) const { return static_cast<std::size_t>(n_ + j); }
  long long& Flow(int i, int j) { return flow_[static_cast<std::size_t>(i) * static_cast<std::size_t>(m_) + j]; }
  double Forward(int i, int j) const { return c_(i, j) + p_[static_cast<std::size_t>(i)] - p_[Sink(j)]; }
  // The same along a source's row, read from the row-major copy.
  double RowForward(int i, int j) const { return rows_(i, j) + p_[static_cast<std::size_t>(i)] - p_[Sink(j)]; }

  // Shortest reduced distances from the sources with supply; raises the
  // potentials; returns the nearest sink with demand.
  int Dijkstra() {
    const double inf = std::numeric_limits<double>::infinity();
    std::fill(dist_.begin(), dist_.end(), inf);
    std::fill(parent_.begin(), parent_.end(), -1);
    std::fill(done_.begin(), done_.end(), 0);
    // The frontier: reached, not yet settled. Scanning it instead of every
    // vertex is what makes a phase cheap when it ends early.
    frontier_.clear();
    for (int i = 0; i < n_; ++i) {
      if (supply_[static_cast<std::size_t>(i)] > 0) {
        dist_[static_cast<std::size_t>(i)] = 0;
        frontier_.push_back(i);
      }
    }
    auto relax = [&](int v, double d, int from) {
      if (d < dist_[static_cast<std::size_t>(v)]) {
        if (dist_[static_cast<std::size_t>(v)] == inf) frontier_.push_back(v);
        dist_[static_cast<std::size_t>(v)] = d;
        parent_[static_cast<std::size_t>(v)] = from;
      }
    };
    int target = -1;
    while (!frontier_.empty()) {
      std::size_t at = 0;
      for (std::size_t k = 1; k < frontier_.size(); ++k) {
        if (dist_[static_cast<std::size_t>(frontier_[k])] < dist_[static_cast<std::size_t>(frontier_[at])]) at = k;
      }
      const int u = frontier_[at];
      frontier_[at] = frontier_.back();
      frontier_.pop_back();
      const double best = dist_[static_cast<std::size_t>(u)];
      done_[static_cast<std::size_t>(u)] = 1;
      if (u >= n_ && demand_[static_cast<std::size_t>(u - n_)] > 0) {
        target = u;
        break;
      }
      if (u < n_) {
        for (int j = 0; j < m_; ++j) {
          const std::size_t v = Sink(j);
          if (!done_[v]) relax(static_cast<int>(v), best + std::max(0.0, RowForward(u, j)), u);
        }
      } else {
        const int j = u - n_;
        for (int i = 0; i < n_; ++i) {
          if (done_[static_cast<std::size_t>(i)] || Flow(i, j) == 0) continue;
          relax(i, best + std::max(0.0, -Forward(i, j)), u);
        }
      }
    }
    const double reach = dist_[static_cast<std::size_t>(target)];
    for (std::size_t v = 0; v < p_.size(); ++v) p_[v] += std::min(dist_[v], reach);
    return target;
  }

  // Pushes along Dijkstra's parent path to `target`; the amount pushed.
  long long Augment(int target) {
    long long push = demand_[static_cast<std::size_t>(target - n_)];
    int v = target;
    while (parent_[static_cast<std::size_t>(v)] >= 0) {
      const int u = parent_[static_cast<std::size_t>(v)];
      if (u >= n_) push = std::min(push, Flow(v, u - n_));
      v = u;
    }
    push = std::min(push, supply_[static_cast<std::size_t>(v)]);
    supply_[static_cast<std::size_t>(v)] -= push;
    demand_[static_cast<std::size_t>(target - n_)] -= push;
    for (v = target; parent_[static_cast<std::size_t>(v)] >= 0; v = parent_[static_cast<std::size_t>(v)]) {
      const int u = parent_[static_cast<std::size_t>(v)];
      if (u < n_) {
        Flow(u, v - n_) += push;
      } else {
        Flow(v, u - n_) -= push;
      }
    }
    return push;
  }

  // Augmenting paths over arcs of reduced cost 0 until none is left.
  long long BlockingFlow() {
    std::fill(arc_.begin(), arc_.end(), 0);
    std::fill(dead_.begin(), dead_.end(), 0);
    long long pushed = 0;
    std::vector<int> path;
    for (int s = 0; s < n_; ++s) {
      while (supply_[static_cast<std::size_t>(s)] > 0 && !dead_[static_cast<std::size_t>(s)]) {
        path.assign(1, s);
        on_path_[static_cast<std::size_t>(s)] = 1;
        bool found = false;
        while (!path.empty()) {
          const int u = path.back();
          if (u >= n_ && demand_[static_cast<std::size_t>(u - n_)] > 0) {
            found = true;
            break;
          }
          int next = -1;
          int& a = arc_[static_cast<std::size_t>(u)];
          if (u < n_) {
            for (; a < m_; ++a) {
              const std::size_t v = Sink(a);
              if (!dead_[v] && !on_path_[v] && RowForward(u, a) <= eps_) {
                next = static_cast<int>(v);
                break;
              }
            }
          } else {
            const int j = u - n_;
            for (; a < n_; ++a) {
              if (!dead_[static_cast<std::size_t>(a)] && !on_path_[static_cast<std::size_t>(a)] && Flow(a, j) > 0 &&
                  -Forward(a, j) <= eps_) {
                next = a;
                break;
              }
            }
          }
          if (next >= 0) {
            on_path_[static_cast<std::size_t>(next)] = 1;
            path.push_back(next);
          } else {
            dead_[static_cast<std::size_t>(u)] = 1;
            on_path_[static_cast<std::size_t>(u)] = 0;
            path.pop_back();
          }
        }
        for (int v : path) on_path_[static_cast<std::size_t>(v)] = 0;
        if (!found) break;
        // The bottleneck: the source's supply, the sink's demand, backward arcs' flow.
        const int t = path.back();
        long long push = std::min(supply_[static_cast<std::size_t>(s)], demand_[static_cast<std::size_t>(t - n_)]);
        for (std::size_t k = 1; k < path.size(); ++k) {
          if (path[k - 1] >= n_) push = std::min(push, Flow(path[k], path[k - 1] - n_));
        }
        for (std::size_t k = 1; k < path.size(); ++k) {
          if (path[k - 1] < n_) {
            Flow(path[k - 1], path[k] - n_) += push;
          } else {
            Flow(path[k], path[k - 1] - n_) -= push;
          }
        }
        supply_[static_cast<std::size_t>(s)] -= push;
        demand_[static_cast<std::size_t>(t - n_)] -= push;
        pushed += push;
      }
    }
    return pushed;
  }

  const Eigen::MatrixXd& c_;
  // Sources scan their rows: contiguous in this copy.
  const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> rows_;
  int n_, m_;
  double eps_ = 0;
  std::vector<long long> supply_, demand_, flow_;
  std::vector<double> p_, dist_;
  std::vector<int> parent_;
  std::vector<char> done_;
  std::vector<int> arc_;
  std::vector<char> dead_, on_path_;
  std::vector<int> frontier_;
};

}  // namespace

Eigen::MatrixXd UniformTransport(const Eigen::MatrixXd& cost) { return Transport(cost).Solve(); }

}  // namespace ldpgraph
