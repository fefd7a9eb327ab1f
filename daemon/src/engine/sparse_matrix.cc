#include "engine/sparse_matrix.h"

namespace ldpgraph {

SparseMatrix SparseMatrix::Transposed() const {
  SparseMatrix t;
  t.rows = cols;
  t.cols = rows;
  t.offsets.assign(static_cast<std::size_t>(cols) + 1, 0);
  for (auto c : indices) ++t.offsets[static_cast<std::size_t>(c) + 1];
  for (std::int64_t i = 0; i < cols; ++i) t.offsets[i + 1] += t.offsets[i];
  t.indices.resize(indices.size());
  t.values.resize(values.size());
  std::vector<std::int64_t> fill(t.offsets.begin(), t.offsets.end() - 1);
  for (std::int64_t r = 0; r < rows; ++r) {  // rows in order: each output row stays sorted
    for (std::int64_t k = offsets[r]; k < offsets[r + 1]; ++k) {
      const std::int64_t slot = fill[indices[k]]++;
      t.indices[slot] = static_cast<std::int32_t>(r);
      t.values[slot] = values[k];
    }
  }
  return t;
}

void SpMM(const SparseMatrix& a, const Matrix& x, Matrix* y) {
  y->resize(a.rows, x.cols());
  const std::int64_t rows = a.rows;
#pragma omp parallel for schedule(dynamic, 1024) if (rows * x.cols() > 65536)
  for (std::int64_t r = 0; r < rows; ++r) {
    auto out = y->row(r);
    out.setZero();
    for (std::int64_t k = a.offsets[r]; k < a.offsets[r + 1]; ++k) {
      out.noalias() += a.values[k] * x.row(a.indices[k]);
    }
  }
}

}  // namespace ldpgraph
