// NodeFeatures: the input of a node model, one row per node, held dense or
// as CSR. Rectified LDP estimates and KProp'd features are dense; true
// bag-of-words features are not: a page-page graph's 22,470 x 4,714 binary
// features with 14 words a node take 1.3 MB as CSR and 424 MB dense. A node
// model multiplies sparse features by its first weights before anything
// else, so training never makes anything n x F of them.
// Dense features may also be borrowed (DenseView): a caller's buffer, such
// as a numpy array handed over from Python, read in place and never copied
// by the products of a model's first layer.
// Rectified multi-bit features are held factored (engine/factored_features.h):
// a sparse matrix, its KProp steps and a low-rank term, never n x d values.
#ifndef LDPGRAPH_DAEMON_ENGINE_NODE_FEATURES_H_
#define LDPGRAPH_DAEMON_ENGINE_NODE_FEATURES_H_

#include <cstdint>
#include <vector>

#include "engine/factored_features.h"
#include "engine/matrix.h"
#include "engine/sparse_matrix.h"

namespace ldpgraph {

class NodeFeatures {
 public:
  NodeFeatures() = default;
  static NodeFeatures Dense(Matrix x);
  // The rows x cols row-major floats at `data`, not copied: the caller keeps
  // them alive and unchanged as long as this (and any copy of it) is used.
  static NodeFeatures DenseView(const float* data, Eigen::Index rows, Eigen::Index cols);
  static NodeFeatures Sparse(SparseMatrix x);
  // Sparse while at most `max_density` of the entries are stored, dense
  // otherwise (a dense product is faster than a sparse one of the same size).
  static NodeFeatures Choose(SparseMatrix x, double max_density = 0.1);
  static NodeFeatures Factored(FactoredFeatures x);

  bool is_sparse() const { return is_sparse_; }
  // Neither sparse nor dense: dense() and sparse() must not be called.
  bool is_factored() const { return is_factored_; }
  // Dense and borrowed (DenseView): dense() reads the caller's buffer.
  bool is_view() const { return view_data_ != nullptr; }
  Eigen::Index rows() const;
  Eigen::Index cols() const;
  // Requires !is_sparse() && !is_factored(); held or borrowed alike.
  MatrixView dense() const { return is_view() ? MatrixView(view_data_, view_rows_, view_cols_) : ViewOf(dense_); }
  // The held dense matrix: requires !is_sparse() && !is_view().
  const Matrix& dense_matrix() const { return dense_; }
  const SparseMatrix& sparse() const { return sparse_; }  // requires is_sparse()
  const FactoredFeatures& factored() const { return factored_; }  // requires is_factored()
  // Requires !is_sparse() && !is_factored(); a borrowed matrix is copied
  // first (and held from then on).
  Matrix* mutable_dense();
  SparseMatrix* mutable_sparse() { return &sparse_; }
  Matrix ToDense() const;
  // The listed rows, in order, held as these are (a batch's features;
  // factored ones come out dense, their rows mixed by the propagation).
  // Requires every row < rows().
  NodeFeatures Rows(const std::vector<std::uint32_t>& rows) const;
  // The memory the values take (and, sparse, the pattern).
  std::int64_t bytes() const;

 private:
  bool is_sparse_ = false;
  bool is_factored_ = false;
  Matrix dense_;
  SparseMatrix sparse_;
  FactoredFeatures factored_;
  const float* view_data_ = nullptr;  // DenseView's buffer; dense_ is empty then
  Eigen::Index view_rows_ = 0, view_cols_ = 0;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_ENGINE_NODE_FEATURES_H_
