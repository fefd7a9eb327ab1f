// The linear step of Gromov-Wasserstein's conditional gradient: exact
// optimal transport between two uniform distributions,
//   min <G, T> over T >= 0 with T 1 = 1/n, T^T 1 = 1/m.
// Scaled by n m the marginals are integers (each row ships m units, each
// column takes n), so the problem is a min-cost flow with integer supplies,
// solved exactly by the primal-dual method: Dijkstra on reduced costs
// (dense, O((n + m)^2)), then as many augmenting paths as the zero-cost
// arcs carry. The answer is a vertex of the transport polytope; for n = m
// it is a permutation divided by n.
#ifndef LDPGRAPH_DAEMON_GW_TRANSPORT_LP_H_
#define LDPGRAPH_DAEMON_GW_TRANSPORT_LP_H_

#include <Eigen/Core>

namespace ldpgraph {

// `cost` is n x m with finite entries (the caller checks); returns T.
// `potentials` (may be null): the rows' dual potentials of a similar
// problem to start from (ignored unless n of them, all finite), replaced
// by this problem's. A warm start changes the work, not the optimum's
// value; among several optimal plans it may pick another.
Eigen::MatrixXd UniformTransport(const Eigen::MatrixXd& cost, Eigen::VectorXd* potentials = nullptr);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_GW_TRANSPORT_LP_H_
