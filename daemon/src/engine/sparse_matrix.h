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
  // One weight per index, or empty: every weight is 1 (GIN's sum
  // aggregation), which halves the bytes a product reads.
  std::vector<float> values;

  std::int64_t nnz() const { return static_cast<std::int64_t>(indices.size()); }
  bool unit_weights() const { return values.empty(); }
  std::int64_t bytes() const;  // offsets, indices and values
  SparseMatrix Transposed() const;
};

// A block-diagonal matrix made of existing matrices, not copies of them: a
// batch of graphs costs nothing to assemble however dense its graphs are.
// Block b covers rows and columns [offsets[b], offsets[b+1]); the blocks must
// be square and outlive the view.
struct BlockDiagonal {
  std::vector<const SparseMatrix*> blocks;
  std::vector<std::int64_t> offsets = {0};

  void Append(const SparseMatrix* block);
  std::int64_t rows() const { return offsets.back(); }
};

// How a product reads the rows of x, which at 10^6 users are gathered from
// memory in the graph's random order, each costing whole cache lines.
// kBf16: x is first rounded to bfloat16 (8 significant bits: a relative
// error of at most 2^-9 per element), which halves the bytes a row costs;
// the sums stay in float. Only for widths 16, 32 and 64 (the hidden sizes;
// others read floats). kAuto: kBf16 where x exceeds 32 MB, far past the
// caches, and floats below, where rows come from cache and rounding would
// only cost a pass. A neighbour sum at 10^6 rows of 64 (2 threads): 0.26 s
// with floats, 0.18 s with bfloat16 including the rounding.
enum class GatherPrecision { kAuto, kFloat, kBf16 };
// Whether a product reads bfloat16 under `p` from an x of `width` columns
// whose product rows each name rows among `rows` of them.
bool GathersBf16(GatherPrecision p, std::int64_t rows, std::int64_t width);
// The precision every new Tape aggregates with (kAuto until set): the CLI's
// --gathers. Not for privacy mechanisms, whose sensitivity bounds assume
// exact inputs: they call SpMM without one, which reads floats.
void SetDefaultGatherPrecision(GatherPrecision p);
GatherPrecision DefaultGatherPrecision();
const char* GatherPrecisionName(GatherPrecision p);  // "auto", "float", "bf16"

// y = A x (y is resized). Requires x.rows() == A.cols.
void SpMM(const SparseMatrix& a, const Matrix& x, Matrix* y, GatherPrecision p = GatherPrecision::kFloat);
void SpMM(const SparseMatrix& a, const MatrixView& x, Matrix* y, GatherPrecision p = GatherPrecision::kFloat);
// The same with A's pattern and `values` in place of its weights (one per
// index; null: every weight 1). Dropout on sparse inputs uses it.
void SpMM(const SparseMatrix& a, const float* values, const Matrix& x, Matrix* y);
// y = A^T g without forming A^T (y is a.cols x g.cols()): each row of g is
// scattered into the rows its entries name. The weight gradient of a sparse
// input's product; A^T would cost a copy of A's pattern and, with dropout, a
// permuted copy of its values every step. Requires g.rows() == a.rows.
void SpMMTransposed(const SparseMatrix& a, const float* values, const Matrix& g, Matrix* y);
// y = A X for a sparse X: dense output, work nnz(A) times X's row length
// (the first KProp step of sparse features). Requires x.rows == a.cols.
void SpMM(const SparseMatrix& a, const SparseMatrix& x, Matrix* y);
// The dense matrix of `a`.
Matrix ToDense(const SparseMatrix& a);
// y = A x for a block-diagonal A. Requires x.rows() == a.rows().
void SpMM(const BlockDiagonal& a, const Matrix& x, Matrix* y, GatherPrecision p = GatherPrecision::kFloat);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_ENGINE_SPARSE_MATRIX_H_
