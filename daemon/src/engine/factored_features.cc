#include "engine/factored_features.h"

namespace ldpgraph {

Matrix FactoredFeatures::ToDense() const {
  Matrix z = ldpgraph::ToDense(sparse), next;
  for (int k = 0; k < steps; ++k) {
    SpMM(*propagation, z, &next);
    z.swap(next);
  }
  if (left.cols() > 0) z.noalias() += left * right;
  return z;
}

std::int64_t FactoredFeatures::bytes() const {
  return sparse.bytes() + (packed != nullptr ? packed->bytes() : 0) +
         static_cast<std::int64_t>((left.size() + right.size()) * static_cast<Eigen::Index>(sizeof(float)));
}

FactoredFeatures SparsePlusOffset(SparseMatrix sparse, const std::vector<float>& offset) {
  FactoredFeatures f;
  f.left = Matrix::Ones(static_cast<Eigen::Index>(sparse.rows), 1);
  f.right = Eigen::Map<const Matrix>(offset.data(), 1, static_cast<Eigen::Index>(offset.size()));
  f.sparse = std::move(sparse);
  return f;
}

}  // namespace ldpgraph
