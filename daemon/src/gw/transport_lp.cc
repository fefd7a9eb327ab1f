#include "gw/transport_lp.h"

#include <algorithm>
#include <limits>
#include <vector>

namespace ldpgraph {

Eigen::MatrixXd UniformTransport(const Eigen::MatrixXd& cost) {
  const int n = static_cast<int>(cost.rows()), m = static_cast<int>(cost.cols());
  // Nodes: sources 0..n-1, sinks n..n+m-1. Source i ships m units, sink j
  // takes n. flow(i, j) >= 0; residual arcs i -> j (cost c) unbounded and
  // j -> i (cost -c) while flow(i, j) > 0.
  std::vector<long long> supply(static_cast<std::size_t>(n), m), demand(static_cast<std::size_t>(m), n);
  std::vector<long long> flow(static_cast<std::size_t>(n) * static_cast<std::size_t>(m), 0);
  std::vector<double> potential(static_cast<std::size_t>(n + m), 0.0);
  // Start from reduced costs >= 0 on every forward arc: sink potentials at
  // their column minimum.
  for (int j = 0; j < m; ++j) potential[static_cast<std::size_t>(n + j)] = cost.col(j).minCoeff();
  const double kInf = std::numeric_limits<double>::infinity();
  std::vector<double> dist(static_cast<std::size_t>(n + m));
  std::vector<int> parent(static_cast<std::size_t>(n + m));
  std::vector<char> done(static_cast<std::size_t>(n + m));
  long long remaining = static_cast<long long>(n) * m;
  while (remaining > 0) {
    // Dijkstra from every source with supply left at once (a super source).
    std::fill(dist.begin(), dist.end(), kInf);
    std::fill(parent.begin(), parent.end(), -1);
    std::fill(done.begin(), done.end(), 0);
    for (int i = 0; i < n; ++i) {
      if (supply[static_cast<std::size_t>(i)] > 0) dist[static_cast<std::size_t>(i)] = 0;
    }
    int target = -1;
    for (;;) {
      int u = -1;
      for (int v = 0; v < n + m; ++v) {
        if (!done[static_cast<std::size_t>(v)] && dist[static_cast<std::size_t>(v)] < kInf &&
            (u < 0 || dist[static_cast<std::size_t>(v)] < dist[static_cast<std::size_t>(u)])) {
          u = v;
        }
      }
      if (u < 0) break;
      done[static_cast<std::size_t>(u)] = 1;
      if (u >= n && demand[static_cast<std::size_t>(u - n)] > 0) {
        target = u;
        break;
      }
      const double du = dist[static_cast<std::size_t>(u)];
      if (u < n) {  // forward arcs to every sink
        for (int j = 0; j < m; ++j) {
          const int v = n + j;
          if (done[static_cast<std::size_t>(v)]) continue;
          const double reduced = cost(u, j) + potential[static_cast<std::size_t>(u)] - potential[static_cast<std::size_t>(v)];
          const double d = du + std::max(0.0, reduced);  // clamp rounding below 0
          if (d < dist[static_cast<std::size_t>(v)]) {
            dist[static_cast<std::size_t>(v)] = d;
            parent[static_cast<std::size_t>(v)] = u;
          }
        }
      } else {  // backward arcs to the sources that ship to this sink
        const int j = u - n;
        for (int i = 0; i < n; ++i) {
          if (done[static_cast<std::size_t>(i)] || flow[static_cast<std::size_t>(i) * m + j] == 0) continue;
          const double reduced = -cost(i, j) + potential[static_cast<std::size_t>(u)] - potential[static_cast<std::size_t>(i)];
          const double d = du + std::max(0.0, reduced);
          if (d < dist[static_cast<std::size_t>(i)]) {
            dist[static_cast<std::size_t>(i)] = d;
            parent[static_cast<std::size_t>(i)] = u;
          }
        }
      }
    }
    // Keep reduced costs non-negative: raise potentials by the distances
    // found (unreached nodes by the target's).
    const double reach = dist[static_cast<std::size_t>(target)];
    for (int v = 0; v < n + m; ++v) {
      potential[static_cast<std::size_t>(v)] += std::min(dist[static_cast<std::size_t>(v)], reach);
    }
    // The path's bottleneck: the source's supply, the sink's demand, and
    // the flow on every backward arc.
    long long push = demand[static_cast<std::size_t>(target - n)];
    int v = target;
    while (parent[static_cast<std::size_t>(v)] >= 0) {
      const int u = parent[static_cast<std::size_t>(v)];
      if (u >= n) push = std::min(push, flow[static_cast<std::size_t>(v) * m + (u - n)]);  // backward u -> v
      v = u;
    }
    push = std::min(push, supply[static_cast<std::size_t>(v)]);
    supply[static_cast<std::size_t>(v)] -= push;
    demand[static_cast<std::size_t>(target - n)] -= push;
    v = target;
    while (parent[static_cast<std::size_t>(v)] >= 0) {
      const int u = parent[static_cast<std::size_t>(v)];
      if (u < n) {
        flow[static_cast<std::size_t>(u) * m + (v - n)] += push;
      } else {
        flow[static_cast<std::size_t>(v) * m + (u - n)] -= push;
      }
      v = u;
    }
    remaining -= push;
  }
  Eigen::MatrixXd t(n, m);
  const double scale = 1.0 / (static_cast<double>(n) * m);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < m; ++j) t(i, j) = static_cast<double>(flow[static_cast<std::size_t>(i) * m + j]) * scale;
  }
  return t;
}

}  // namespace ldpgraph
