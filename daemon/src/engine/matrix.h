// Dense types of the GNN engine: node states are row-major float matrices
// (one row per node), so a node's features are contiguous.
#ifndef LDPGRAPH_DAEMON_ENGINE_MATRIX_H_
#define LDPGRAPH_DAEMON_ENGINE_MATRIX_H_

#include <Eigen/Core>

namespace ldpgraph {

using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using RowVector = Eigen::Matrix<float, 1, Eigen::Dynamic>;
// A row-major float matrix held elsewhere and read in place (a caller's
// numpy array, for one): contiguous, rows after rows.
using MatrixView = Eigen::Map<const Matrix>;

inline MatrixView ViewOf(const Matrix& m) { return MatrixView(m.data(), m.rows(), m.cols()); }

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_ENGINE_MATRIX_H_
