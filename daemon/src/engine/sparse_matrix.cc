#include "engine/sparse_matrix.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <memory>

#include "engine/kernels/kernel_table.h"
#include "engine/parallel.h"

namespace ldpgraph {
namespace {

// Rows per parallel work item: enough to amortise scheduling, small enough
// that one huge graph still splits over both cores.
constexpr std::int64_t kRowsPerTask = 1024;

// The size of x (as floats) above which, under kAuto, a product reads its
// rows as bfloat16: the rows then come from memory, not cache. (Engine
// figures measured before 2026-11-27 are not evidence: GCC had dropped the
// 32- and 64-wide prefetches. A GIN epoch at 10^6 users with them, and then
// with bfloat16 rows: 4.0-4.3 -> 3.2-3.9 -> 3.0-3.4 s.)
constexpr double kPastTheCachesBytes = 32 << 20;

// Below this, x stays in a core's L1 (48 KB on the machines measured).
constexpr std::int64_t kL1Bytes = 32 << 10;

bool PastTheCaches(std::int64_t rows, std::int64_t width) {
  return static_cast<double>(rows) * static_cast<double>(width) * sizeof(float) > kPastTheCachesBytes;
}

// x as the kernels read it: its floats, or a bfloat16 copy. `reach`: the
// rows any one product row may name (a block-diagonal matrix's largest
// block), which decides kAuto.
class GatherSource {
 public:
  GatherSource(const MatrixView& x, GatherPrecision p, std::int64_t reach)
      : x_(x.data()), x_in_l1_(x.size() * static_cast<std::int64_t>(sizeof(float)) <= kL1Bytes) {
    if (!GathersBf16(p, reach, x.cols())) return;
    const std::int64_t count = x.size();
    rounded_.reset(new std::uint16_t[static_cast<std::size_t>(count)]);  // no zero fill: every element is written
    constexpr std::int64_t kChunk = std::int64_t{1} << 16;
    const std::int64_t chunks = (count + kChunk - 1) / kChunk;
#pragma omp parallel for schedule(static) if (chunks > 1)
    for (std::int64_t c = 0; c < chunks; ++c) {
      const std::int64_t begin = c * kChunk;
      Kernels().round_to_bf16(x_ + begin, std::min(kChunk, count - begin), rounded_.get() + begin);
    }
  }

  // Rows [begin, end) of y = A x, where `row` is the block's first row of x
  // and y points at the block's first row; `w` are A's weights (null: all 1).
  void ProductRows(const SparseMatrix& a, const float* w, std::int64_t row, Eigen::Index width, std::int64_t begin,
                   std::int64_t end, float* y) const {
    // Always prefetched: rows named kPrefetchAhead indices later cost nothing
    // when x is in cache and save most of a product when it is not, at any
    // size past a core's L2. Random 16-entry rows, 2 threads, before (only
    // past 32 MB) and after: 10^6 rows of 4 floats (16 MB) 88 -> 54 ms, of 8
    // 122-142 -> 72-75 ms; 2 x 10^5 of 4 9 -> 3.4 ms; 2 x 10^4 of 8 (640 KB)
    // 1.0 -> 0.2 ms; 10^5 of 64 20 -> 13.7 ms; 16 and 32 wide unchanged.
    // Not when x fits in L1 (a sparse input's weight rows: 500 x 16 floats),
    // where the prefetches are only instructions.
    const bool prefetch = !x_in_l1_;
    const std::int64_t first = row * width;
    if (rounded_) {
      Kernels().sparse_rows_bf16(a.offsets.data(), a.indices.data(), w, rounded_.get() + first, width, begin, end,
                                 prefetch, y);
    } else {
      Kernels().sparse_rows(a.offsets.data(), a.indices.data(), w, x_ + first, width, begin, end, prefetch, y);
    }
  }

 private:
  const float* x_;
  bool x_in_l1_;
  std::unique_ptr<std::uint16_t[]> rounded_;
};

std::atomic<GatherPrecision> default_gathers{GatherPrecision::kAuto};

const float* WeightsOf(const SparseMatrix& a) { return a.unit_weights() ? nullptr : a.values.data(); }

}  // namespace

bool GathersBf16(GatherPrecision p, std::int64_t rows, std::int64_t width) {
  if (p == GatherPrecision::kFloat || (width != 16 && width != 32 && width != 64)) return false;
  return p == GatherPrecision::kBf16 || PastTheCaches(rows, width);
}

void SetDefaultGatherPrecision(GatherPrecision p) { default_gathers.store(p); }
GatherPrecision DefaultGatherPrecision() { return default_gathers.load(); }

const char* GatherPrecisionName(GatherPrecision p) {
  switch (p) {
    case GatherPrecision::kFloat: return "float";
    case GatherPrecision::kBf16: return "bf16";
    case GatherPrecision::kAuto: break;
  }
  return "auto";
}

std::int64_t SparseMatrix::bytes() const {
  return static_cast<std::int64_t>(offsets.size() * sizeof(std::int64_t) + indices.size() * sizeof(std::int32_t) +
                                   values.size() * sizeof(float));
}

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

namespace {

void Product(const SparseMatrix& a, const float* values, const MatrixView& x, GatherPrecision p, Matrix* y) {
  assert(x.rows() == a.cols);
  const GatherSource source(x, p, a.cols);
  y->resize(a.rows, x.cols());
  const std::int64_t rows = a.rows;
  const Eigen::Index width = x.cols();
  const std::int64_t tasks = (rows + kRowsPerTask - 1) / kRowsPerTask;
#pragma omp parallel for schedule(dynamic, 1) if (a.nnz() * width > 65536)
  for (std::int64_t t = 0; t < tasks; ++t) {
    const std::int64_t begin = t * kRowsPerTask;
    source.ProductRows(a, values, 0, width, begin, std::min(rows, begin + kRowsPerTask), y->data());
  }
}

}  // namespace

void SpMM(const SparseMatrix& a, const Matrix& x, Matrix* y, GatherPrecision p) {
  Product(a, WeightsOf(a), ViewOf(x), p, y);
}

void SpMM(const SparseMatrix& a, const MatrixView& x, Matrix* y, GatherPrecision p) {
  Product(a, WeightsOf(a), x, p, y);
}

void SpMM(const SparseMatrix& a, const float* values, const Matrix& x, Matrix* y) {
  Product(a, values, ViewOf(x), GatherPrecision::kFloat, y);
}

void SpMMTransposed(const SparseMatrix& a, const float* values, const Matrix& g, Matrix* y) {
  assert(g.rows() == a.rows);
  const Eigen::Index width = g.cols();
  // One partial sum per thread over a contiguous block of A's rows, added in
  // thread order: the result depends on the thread count only, like the
  // dense weight gradient. One thread when the partials would be large.
  const auto partial_bytes = static_cast<double>(a.cols) * static_cast<double>(width) * sizeof(float);
  const bool split = a.nnz() * width > 65536 && partial_bytes * EngineThreads() < 256e6;
  std::vector<Matrix> partial(split ? static_cast<std::size_t>(EngineThreads()) : 1);
  auto scatter = [&](int t, Eigen::Index begin, Eigen::Index end) {
    Matrix& out = partial[static_cast<std::size_t>(t)];
    out.setZero(a.cols, width);
    Kernels().scatter_rows(a.offsets.data(), a.indices.data(), values, g.data(), width, begin, end, out.data());
  };
  if (split) {
    ForEachRowBlock(a.rows, scatter);
  } else {
    scatter(0, 0, a.rows);
  }
  *y = std::move(partial[0]);
  for (std::size_t t = 1; t < partial.size(); ++t) {
    if (partial[t].size() != 0) *y += partial[t];
  }
}

void SpMM(const SparseMatrix& a, const SparseMatrix& x, Matrix* y) {
  assert(x.rows == a.cols);
  y->setZero(a.rows, x.cols);
  const float* aw = WeightsOf(a);
  const float* xw = WeightsOf(x);
#pragma omp parallel for schedule(dynamic, 256) if (a.rows >= 2048)
  for (std::int64_t r = 0; r < a.rows; ++r) {
    float* out = y->data() + r * x.cols;
    for (std::int64_t k = a.offsets[r]; k < a.offsets[r + 1]; ++k) {
      const float weight = aw == nullptr ? 1.0f : aw[k];
      const std::int64_t j = a.indices[k];
      for (std::int64_t e = x.offsets[j]; e < x.offsets[j + 1]; ++e) {
        out[x.indices[e]] += weight * (xw == nullptr ? 1.0f : xw[e]);
      }
    }
  }
}

Matrix ToDense(const SparseMatrix& a) {
  Matrix dense = Matrix::Zero(a.rows, a.cols);
  for (std::int64_t r = 0; r < a.rows; ++r) {
    for (std::int64_t k = a.offsets[r]; k < a.offsets[r + 1]; ++k) {
      dense(r, a.indices[k]) = a.unit_weights() ? 1.0f : a.values[k];
    }
  }
  return dense;
}

void SpMM(const BlockDiagonal& a, const Matrix& x, Matrix* y, GatherPrecision p) {
  assert(x.rows() == a.rows());
  std::int64_t reach = 0;
  for (const SparseMatrix* block : a.blocks) reach = std::max(reach, block->cols);
  const GatherSource source(ViewOf(x), p, reach);
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
    const std::int64_t first = a.offsets[static_cast<std::size_t>(b)];
    source.ProductRows(block, WeightsOf(block), first, width, begin, std::min(block.rows, begin + kRowsPerTask),
                       y->data() + first * width);
  }
}

}  // namespace ldpgraph
