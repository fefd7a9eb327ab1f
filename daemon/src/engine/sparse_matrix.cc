#include "engine/sparse_matrix.h"

#include <algorithm>
#include <cassert>

namespace ldpgraph {
namespace {

// Rows per parallel work item: enough to amortise scheduling, small enough
// that one huge graph still splits over both cores.
constexpr std::int64_t kRowsPerTask = 1024;

// out = sum over k of w_k x[idx_k] for one row, x rows of width W known at
// compile time (the hidden sizes), so the accumulator lives in registers.
template <int W, bool kUnit>
void RowProductFixed(const float* x, const std::int32_t* idx, const float* w, std::int64_t count, float* out) {
  using Row = Eigen::Matrix<float, 1, W>;
  Row acc = Row::Zero();
  for (std::int64_t k = 0; k < count; ++k) {
    Eigen::Map<const Row> xr(x + static_cast<std::int64_t>(idx[k]) * W);
    if constexpr (kUnit) {
      acc += xr;
    } else {
      acc += w[k] * xr;
    }
  }
  Eigen::Map<Row> result(out);
  result = acc;
}

template <bool kUnit>
void RowProductDynamic(const float* x, Eigen::Index width, const std::int32_t* idx, const float* w,
                       std::int64_t count, float* out) {
  Eigen::Map<RowVector> acc(out, width);
  acc.setZero();
  for (std::int64_t k = 0; k < count; ++k) {
    Eigen::Map<const RowVector> xr(x + static_cast<std::int64_t>(idx[k]) * width, width);
    if constexpr (kUnit) {
      acc += xr;
    } else {
      acc += w[k] * xr;
    }
  }
}

// Rows [begin, end) of y = A x, where x and y point at the block's first row.
void ProductRows(const SparseMatrix& a, const float* x, Eigen::Index width, std::int64_t begin,
                 std::int64_t end, float* y) {
  const bool unit = a.unit_weights();
  const float* w = unit ? nullptr : a.values.data();
  for (std::int64_t r = begin; r < end; ++r) {
    const std::int64_t first = a.offsets[r], count = a.offsets[r + 1] - first;
    const std::int32_t* idx = a.indices.data() + first;
    const float* wr = unit ? nullptr : w + first;
    float* out = y + r * width;
    switch (width) {
      case 64:
        unit ? RowProductFixed<64, true>(x, idx, wr, count, out) : RowProductFixed<64, false>(x, idx, wr, count, out);
        break;
      case 32:
        unit ? RowProductFixed<32, true>(x, idx, wr, count, out) : RowProductFixed<32, false>(x, idx, wr, count, out);
        break;
      case 16:
        unit ? RowProductFixed<16, true>(x, idx, wr, count, out) : RowProductFixed<16, false>(x, idx, wr, count, out);
        break;
      default:
        unit ? RowProductDynamic<true>(x, width, idx, wr, count, out)
             : RowProductDynamic<false>(x, width, idx, wr, count, out);
    }
  }
}

}  // namespace

SparseMatrix SparseMatrix::Transposed() const {
  SparseMatrix t;
  t.rows = cols;
  t.cols = rows;
  t.offsets.assign(static_cast<std::size_t>(cols) + 1, 0);
  for (auto c : indices) ++t.offsets[static_cast<std::size_t>(c) + 1];
  for (std::int64_t i = 0; i < cols; ++i) t.offsets[i + 1] += t.offsets[i];
  t.indices.resize(indices.size());
  t.values.resize(values.size());
  const bool unit = unit_weights();
  std::vector<std::int64_t> fill(t.offsets.begin(), t.offsets.end() - 1);
  for (std::int64_t r = 0; r < rows; ++r) {  // rows in order: each output row stays sorted
    for (std::int64_t k = offsets[r]; k < offsets[r + 1]; ++k) {
      const std::int64_t slot = fill[indices[k]]++;
      t.indices[slot] = static_cast<std::int32_t>(r);
      if (!unit) t.values[slot] = values[k];
    }
  }
  return t;
}

void BlockDiagonal::Append(const SparseMatrix* block) {
  assert(block->rows == block->cols);
  blocks.push_back(block);
  offsets.push_back(offsets.back() + block->rows);
}

void SpMM(const SparseMatrix& a, const Matrix& x, Matrix* y) {
  assert(x.rows() == a.cols);
  y->resize(a.rows, x.cols());
  const std::int64_t rows = a.rows;
  const Eigen::Index width = x.cols();
  const std::int64_t tasks = (rows + kRowsPerTask - 1) / kRowsPerTask;
#pragma omp parallel for schedule(dynamic, 1) if (a.nnz() * width > 65536)
  for (std::int64_t t = 0; t < tasks; ++t) {
    const std::int64_t begin = t * kRowsPerTask;
    ProductRows(a, x.data(), width, begin, std::min(rows, begin + kRowsPerTask), y->data());
  }
}

void SpMM(const BlockDiagonal& a, const Matrix& x, Matrix* y) {
  assert(x.rows() == a.rows());
  y->resize(a.rows(), x.cols());
  const Eigen::Index width = x.cols();
  // Work items (block, first row) in row order; each covers up to kRowsPerTask rows of one block.
  std::vector<std::pair<std::int32_t, std::int64_t>> tasks;
  std::int64_t nnz = 0;
  for (std::size_t b = 0; b < a.blocks.size(); ++b) {
    nnz += a.blocks[b]->nnz();
    for (std::int64_t r = 0; r < a.blocks[b]->rows; r += kRowsPerTask) tasks.emplace_back(static_cast<std::int32_t>(b), r);
  }
  const auto count = static_cast<std::int64_t>(tasks.size());
#pragma omp parallel for schedule(dynamic, 1) if (nnz * width > 65536)
  for (std::int64_t t = 0; t < count; ++t) {
    const auto [b, begin] = tasks[static_cast<std::size_t>(t)];
    const SparseMatrix& block = *a.blocks[static_cast<std::size_t>(b)];
    const std::int64_t base = a.offsets[static_cast<std::size_t>(b)] * width;
    ProductRows(block, x.data() + base, width, begin, std::min(block.rows, begin + kRowsPerTask),
                y->data() + base);
  }
}

}  // namespace ldpgraph
