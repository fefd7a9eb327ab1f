// SparseMatrix: a weighted CSR matrix for neighbourhood aggregation
// (y = A x) and graph readout. Linear in the number of non-zeros; rows are
// split over threads with OpenMP.
#ifndef LDPGRAPH_DAEMON_ENGINE_SPARSE_MATRIX_H_
#define LDPGRAPH_DAEMON_ENGINE_SPARSE_MATRIX_H_

#include <cstdint>
#include <vector>

#include "engine/matrix.h"

namespace ldpgraph {

struct SparseMatrix {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::vector<std::int64_t> offsets = {0};  // rows + 1
  std::vector<std::int32_t> indices;
  std::vector<float> values;

  std::int64_t nnz() const { return static_cast<std::int64_t>(indices.size()); }
  SparseMatrix Transposed() const;
};

// y = A x (y is resized). Requires x.rows() == A.cols.
void SpMM(const SparseMatrix& a, const Matrix& x, Matrix* y);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_ENGINE_SPARSE_MATRIX_H_
