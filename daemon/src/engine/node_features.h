// NodeFeatures: the input of a node model, one row per node, held dense or
// as CSR. Rectified LDP estimates and KProp'd features are dense; true
// bag-of-words features are not: a page-page graph's 22,470 x 4,714 binary
// features with 14 words a node take 1.3 MB as CSR and 424 MB dense. A node
// model multiplies sparse features by its first weights before anything
// else, so training never makes anything n x F of them.
#ifndef LDPGRAPH_DAEMON_ENGINE_NODE_FEATURES_H_
#define LDPGRAPH_DAEMON_ENGINE_NODE_FEATURES_H_

#include <cstdint>
#include <vector>

#include "engine/matrix.h"
#include "engine/sparse_matrix.h"

namespace ldpgraph {

class NodeFeatures {
 public:
  NodeFeatures() = default;
  static NodeFeatures Dense(Matrix x);
  static NodeFeatures Sparse(SparseMatrix x);
  // Sparse while at most `max_density` of the entries are stored, dense
  // otherwise (a dense product is faster than a sparse one of the same size).
  static NodeFeatures Choose(SparseMatrix x, double max_density = 0.1);

  bool is_sparse() const { return is_sparse_; }
  Eigen::Index rows() const { return is_sparse_ ? sparse_.rows : dense_.rows(); }
  Eigen::Index cols() const { return is_sparse_ ? sparse_.cols : dense_.cols(); }
  const Matrix& dense() const { return dense_; }          // requires !is_sparse()
  const SparseMatrix& sparse() const { return sparse_; }  // requires is_sparse()
  Matrix* mutable_dense() { return &dense_; }
  SparseMatrix* mutable_sparse() { return &sparse_; }
  Matrix ToDense() const { return is_sparse_ ? ldpgraph::ToDense(sparse_) : dense_; }
  // The listed rows, in order, held as these are (a batch's features).
  // Requires every row < rows().
  NodeFeatures Rows(const std::vector<std::uint32_t>& rows) const;
  // The memory the values take (and, sparse, the pattern).
  std::int64_t bytes() const;

 private:
  bool is_sparse_ = false;
  Matrix dense_;
  SparseMatrix sparse_;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_ENGINE_NODE_FEATURES_H_
