// Node inputs renumbered with their graph (graph/node_order.h): row i of the
// result is row old_of_new[i] of the input.
#ifndef LDPGRAPH_DAEMON_ENGINE_PERMUTE_ROWS_H_
#define LDPGRAPH_DAEMON_ENGINE_PERMUTE_ROWS_H_

#include <cstdint>
#include <vector>

#include "engine/node_features.h"

namespace ldpgraph {

SparseMatrix PermuteRows(const SparseMatrix& x, const std::vector<std::uint32_t>& old_of_new);
Matrix PermuteRows(const MatrixView& x, const std::vector<std::uint32_t>& old_of_new);
// Any form, kept in it; factored features must not be propagated yet
// (steps 0: their propagation belongs to the old numbering).
NodeFeatures PermuteRows(const NodeFeatures& x, const std::vector<std::uint32_t>& old_of_new);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_ENGINE_PERMUTE_ROWS_H_
