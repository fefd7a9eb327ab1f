// Exact optimal transport between two uniform distributions,
//   min <G, T> over T >= 0 with T 1 = 1/n, T^T 1 = 1/m,
// from scratch: the cold start of the linear step of Gromov-Wasserstein's
// conditional gradient (transport_simplex.h warm-starts the steps after).
// Scaled by n m the marginals are integers (each row ships m units, each
// column takes n), so the problem is a min-cost flow with integer supplies,
// solved exactly by the primal-dual method: Dijkstra on reduced costs
// (dense, O((n + m)^2)), then as many augmenting paths as the zero-cost
// arcs carry. The plan is optimal but need not be a vertex of the
// transport polytope: the blocking flow can leave cycles of zero reduced
// cost in its support.
#ifndef LDPGRAPH_DAEMON_GW_TRANSPORT_LP_H_
#define LDPGRAPH_DAEMON_GW_TRANSPORT_LP_H_

#include <Eigen/Core>

namespace ldpgraph {

// `cost` is n x m with finite entries (the caller checks); returns T.
Eigen::MatrixXd UniformTransport(const Eigen::MatrixXd& cost);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_GW_TRANSPORT_LP_H_
