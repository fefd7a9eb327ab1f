#include "engine/node_features.h"

namespace ldpgraph {

NodeFeatures NodeFeatures::Dense(Matrix x) {
  NodeFeatures f;
  f.dense_ = std::move(x);
  return f;
}

NodeFeatures NodeFeatures::Sparse(SparseMatrix x) {
  NodeFeatures f;
  f.is_sparse_ = true;
  f.sparse_ = std::move(x);
  return f;
}

NodeFeatures NodeFeatures::Choose(SparseMatrix x, double max_density) {
  const double cells = static_cast<double>(x.rows) * static_cast<double>(x.cols);
  if (cells > 0 && static_cast<double>(x.nnz()) <= max_density * cells) return Sparse(std::move(x));
  return Dense(ldpgraph::ToDense(x));
}

std::int64_t NodeFeatures::bytes() const {
  if (!is_sparse_) return static_cast<std::int64_t>(dense_.size() * sizeof(float));
  return static_cast<std::int64_t>(sparse_.offsets.size() * sizeof(std::int64_t) +
                                   sparse_.indices.size() * sizeof(std::int32_t) +
                                   sparse_.values.size() * sizeof(float));
}

}  // namespace ldpgraph
