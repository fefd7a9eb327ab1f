#include "engine/permute_rows.h"

#include <algorithm>
#include <cassert>

namespace ldpgraph {

SparseMatrix PermuteRows(const SparseMatrix& x, const std::vector<std::uint32_t>& old_of_new) {
  assert(static_cast<std::int64_t>(old_of_new.size()) == x.rows);
  SparseMatrix out;
  out.rows = x.rows;
  out.cols = x.cols;
  out.offsets.assign(static_cast<std::size_t>(x.rows) + 1, 0);
  for (std::size_t i = 0; i < old_of_new.size(); ++i) {
    const std::uint32_t old = old_of_new[i];
    out.offsets[i + 1] = out.offsets[i] + (x.offsets[old + 1] - x.offsets[old]);
  }
  out.indices.resize(x.indices.size());
  out.values.resize(x.values.size());
  for (std::size_t i = 0; i < old_of_new.size(); ++i) {
    const std::uint32_t old = old_of_new[i];
    std::copy(x.indices.begin() + x.offsets[old], x.indices.begin() + x.offsets[old + 1],
              out.indices.begin() + out.offsets[i]);
    if (!x.unit_weights()) {
      std::copy(x.values.begin() + x.offsets[old], x.values.begin() + x.offsets[old + 1],
                out.values.begin() + out.offsets[i]);
    }
  }
  return out;
}

Matrix PermuteRows(const MatrixView& x, const std::vector<std::uint32_t>& old_of_new) {
  assert(static_cast<Eigen::Index>(old_of_new.size()) == x.rows());
  Matrix out(x.rows(), x.cols());
  for (std::size_t i = 0; i < old_of_new.size(); ++i) out.row(static_cast<Eigen::Index>(i)) = x.row(old_of_new[i]);
  return out;
}

NodeFeatures PermuteRows(const NodeFeatures& x, const std::vector<std::uint32_t>& old_of_new) {
  if (x.is_sparse()) return NodeFeatures::Sparse(PermuteRows(x.sparse(), old_of_new));
  if (!x.is_factored()) return NodeFeatures::Dense(PermuteRows(x.dense(), old_of_new));
  const FactoredFeatures& f = x.factored();
  assert(f.steps == 0);
  FactoredFeatures out;
  out.sparse = PermuteRows(f.sparse, old_of_new);
  out.left = f.left.cols() > 0 ? PermuteRows(ViewOf(f.left), old_of_new) : f.left;
  out.right = f.right;
  return NodeFeatures::Factored(std::move(out));
}

}  // namespace ldpgraph
