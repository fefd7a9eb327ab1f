// Dense types of the GNN engine: node states are row-major float matrices
// (one row per node), so a node's features are contiguous.
#ifndef LDPGRAPH_DAEMON_ENGINE_MATRIX_H_
#define LDPGRAPH_DAEMON_ENGINE_MATRIX_H_

#include <Eigen/Core>

namespace ldpgraph {

using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using RowVector = Eigen::Matrix<float, 1, Eigen::Dynamic>;

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_ENGINE_MATRIX_H_
