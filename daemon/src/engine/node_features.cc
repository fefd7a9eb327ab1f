#include "engine/node_features.h"

namespace ldpgraph {

NodeFeatures NodeFeatures::Dense(Matrix x) {
  NodeFeatures f;
  f.dense_ = std::move(x);
  return f;
}

NodeFeatures NodeFeatures::DenseView(const float* data, Eigen::Index rows, Eigen::Index cols) {
  NodeFeatures f;
  f.view_data_ = data;
  f.view_rows_ = rows;
  f.view_cols_ = cols;
  return f;
}

Matrix* NodeFeatures::mutable_dense() {
  if (is_view()) {
    dense_ = dense();
    view_data_ = nullptr;
  }
  return &dense_;
}

NodeFeatures NodeFeatures::Sparse(SparseMatrix x) {
  NodeFeatures f;
  f.is_sparse_ = true;
  f.sparse_ = std::move(x);
  return f;
}

NodeFeatures NodeFeatures::Factored(FactoredFeatures x) {
  NodeFeatures f;
  f.is_factored_ = true;
  f.factored_ = std::move(x);
  return f;
}

Eigen::Index NodeFeatures::rows() const {
  if (is_factored_) return static_cast<Eigen::Index>(factored_.rows());
  return is_sparse_ ? sparse_.rows : is_view() ? view_rows_ : dense_.rows();
}

Eigen::Index NodeFeatures::cols() const {
  if (is_factored_) return static_cast<Eigen::Index>(factored_.cols());
  return is_sparse_ ? sparse_.cols : is_view() ? view_cols_ : dense_.cols();
}

Matrix NodeFeatures::ToDense() const {
  if (is_factored_) return factored_.ToDense();
  return is_sparse_ ? ldpgraph::ToDense(sparse_) : Matrix(dense());
}

NodeFeatures NodeFeatures::Choose(SparseMatrix x, double max_density) {
  const double cells = static_cast<double>(x.rows) * static_cast<double>(x.cols);
  if (cells > 0 && static_cast<double>(x.nnz()) <= max_density * cells) return Sparse(std::move(x));
  return Dense(ldpgraph::ToDense(x));
}

NodeFeatures NodeFeatures::Rows(const std::vector<std::uint32_t>& rows) const {
  if (is_factored_) return Dense(ToDense()).Rows(rows);
  if (!is_sparse_) {
    const MatrixView x = dense();
    Matrix out(static_cast<Eigen::Index>(rows.size()), x.cols());
    for (std::size_t i = 0; i < rows.size(); ++i) out.row(static_cast<Eigen::Index>(i)) = x.row(rows[i]);
    return Dense(std::move(out));
  }
  SparseMatrix out;
  out.rows = static_cast<std::int64_t>(rows.size());
  out.cols = sparse_.cols;
  for (std::uint32_t r : rows) {
    const std::int64_t begin = sparse_.offsets[r], end = sparse_.offsets[r + 1];
    out.indices.insert(out.indices.end(), sparse_.indices.begin() + begin, sparse_.indices.begin() + end);
    if (!sparse_.unit_weights()) {
      out.values.insert(out.values.end(), sparse_.values.begin() + begin, sparse_.values.begin() + end);
    }
    out.offsets.push_back(out.nnz());
  }
  return Sparse(std::move(out));
}

std::int64_t NodeFeatures::bytes() const {
  if (is_factored_) return factored_.bytes();
  if (!is_sparse_) return static_cast<std::int64_t>(rows() * cols() * static_cast<Eigen::Index>(sizeof(float)));
  return sparse_.bytes();
}

}  // namespace ldpgraph
