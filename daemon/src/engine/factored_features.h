// Node features held as a product of their parts instead of n x d values:
//   Z = P^k S + L R
// S is sparse (n x d: what the users reported), P a fixed n x n operator
// applied k times (KProp's mean over neighbours), L R a low-rank term (L is
// n x r, R is r x d; r is 1 or 2). Multi-bit features rectified by the
// server are exactly this with k = 0, L = 1 and R the midpoints: each user
// sent m of d dimensions, and every other one is estimated as its
// midpoint. KProp and standardising every column keep the form (P^k S
// scaled per column, and L gains a column), so a node model's first layer
// costs nnz(S) + k nnz(P) times its width a product, not n d (a 22,470 x
// 4,714 social graph: 22,470 reported entries against 10^8 values).
#ifndef LDPGRAPH_DAEMON_ENGINE_FACTORED_FEATURES_H_
#define LDPGRAPH_DAEMON_ENGINE_FACTORED_FEATURES_H_

#include <memory>

#include "engine/matrix.h"
#include "engine/packed_rows.h"
#include "engine/sparse_matrix.h"

namespace ldpgraph {

struct FactoredFeatures {
  SparseMatrix sparse;  // S, with values
  // P and P^T, shared by every step and copy; null when steps is 0.
  std::shared_ptr<const SparseMatrix> propagation, propagation_t;
  int steps = 0;  // k
  Matrix left;    // L: rows x r (r may be 0)
  Matrix right;   // R: r x cols
  // Z itself rounded to bfloat16 and held whole, when a caller packed it
  // (train/factored_kprop.h): a first layer's product then reads it in one
  // stream instead of making k neighbour sums each way. Shared by copies.
  std::shared_ptr<const PackedRows> packed;

  std::int64_t rows() const { return sparse.rows; }
  std::int64_t cols() const { return sparse.cols; }
  // Z itself: n x d values (tests, and consumers that need every value).
  Matrix ToDense() const;
  // The bytes S, L, R and the packed values take (P is the graph's).
  std::int64_t bytes() const;
};

// The multi-bit form before any KProp: S + 1 offset^T (k = 0, L the ones
// column, R the offsets). Requires offset.size() == sparse.cols.
FactoredFeatures SparsePlusOffset(SparseMatrix sparse, const std::vector<float>& offset);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_ENGINE_FACTORED_FEATURES_H_
