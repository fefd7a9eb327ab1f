#include "train/factored_kprop.h"

#include <algorithm>
#include <cmath>

#include "engine/parallel.h"

namespace ldpgraph {

namespace {

// A column whose spread is below this fraction of its mean is constant.
constexpr double kConstantColumnSpread = 1e-5;

}  // namespace

void StandardiseBlockColumns(const Matrix& block, std::size_t first, ColumnStandardisation* out,
                             std::int64_t columns) {
  const double n = static_cast<double>(block.rows());
  const auto width = static_cast<std::size_t>(columns < 0 ? block.cols() : columns);
  double* mean = out->mean.data() + first;
  double* scale = out->scale.data() + first;
  for (Eigen::Index r = 0; r < block.rows(); ++r) {
    const float* row = block.row(r).data();
    for (std::size_t c = 0; c < width; ++c) mean[c] += row[c];
  }
  for (std::size_t c = 0; c < width; ++c) mean[c] /= n;
  for (Eigen::Index r = 0; r < block.rows(); ++r) {
    const float* row = block.row(r).data();
    for (std::size_t c = 0; c < width; ++c) scale[c] += (row[c] - mean[c]) * (row[c] - mean[c]);
  }
  for (std::size_t c = 0; c < width; ++c) {
    // Constant up to float rounding: a column no report reached after KProp
    // is its midpoint everywhere, and averaging 0.5s leaves a spread of
    // 1e-7 that depends only on the order of the sums. Divided by, it became
    // unit noise: on Cora at kx 4, 229 of 1,433 columns, different for every
    // numbering of the users. A real column varies far more (one report
    // averaged over 4 steps of 3.9 friends moves it by 13 times its mean).
    const double sd = std::sqrt(scale[c] / n);
    scale[c] = sd > kConstantColumnSpread * std::max(std::abs(mean[c]), 1e-7) ? 1.0 / sd : 1.0;
  }
}

namespace {

// Calls visit(first, i, block, width) for each block of columns [first,
// first + width) of P^k (S + L R) once it has taken steps[i] steps (steps
// increasing, >= 0), block by block; `visit` may change the block only at
// the last step. Holds n x block_columns values twice at most. With
// bfloat16 gathers, block_columns must be 16, 32 or 64 and a last, narrower
// block is widened to a multiple of 16 by columns of zeros (the gather
// kernels' widths; a 20-wide one read floats, 2 s of a 9 s pass).
template <typename Visit>
void ForEachPropagatedBlock(const FactoredFeatures& x, const SparseMatrix& p, const std::vector<int>& steps,
                            std::int64_t block_columns, GatherPrecision gathers, Visit&& visit) {
  const std::int64_t n = x.rows(), d = x.cols();
  if (n == 0 || d == 0 || steps.empty()) return;
  const bool widen = gathers == GatherPrecision::kBf16;
  if (!widen) block_columns = std::min(block_columns, d);
  // S by columns: a block's entries are a contiguous run of S^T's rows.
  const SparseMatrix by_column = x.sparse.Transposed();
  Matrix block, next;
  for (std::int64_t first = 0; first < d; first += block_columns) {
    const std::int64_t width = std::min(block_columns, d - first);
    block.setZero(n, widen ? (width + 15) / 16 * 16 : width);
    for (std::int64_t c = first; c < first + width; ++c) {
      for (std::int64_t k = by_column.offsets[c]; k < by_column.offsets[c + 1]; ++k) {
        block(by_column.indices[k], c - first) = by_column.unit_weights() ? 1.0f : by_column.values[k];
      }
    }
    if (x.left.cols() > 0) block.leftCols(width).noalias() += x.left * x.right.middleCols(first, width);
    int done = 0;
    for (std::size_t i = 0; i < steps.size(); ++i) {
      for (; done < steps[i]; ++done) {
        SpMM(p, block, &next, gathers);
        block.swap(next);
      }
      visit(first, i, block, width);
    }
  }
}

}  // namespace

std::vector<ColumnStandardisation> PropagatedStandardisations(const FactoredFeatures& x, const SparseMatrix& p,
                                                              const std::vector<int>& steps,
                                                              std::int64_t block_columns) {
  std::vector<ColumnStandardisation> out(steps.size());
  for (ColumnStandardisation& s : out) {
    s.mean.assign(static_cast<std::size_t>(x.cols()), 0.0);
    s.scale.assign(static_cast<std::size_t>(x.cols()), 0.0);
  }
  // Blocks of about 32 MB, a whole number of 64-byte lines a row (16
  // floats): a 33-wide block's rows straddle three lines each, and at 10^6
  // users its 60 neighbour sums took 26.2 s against 17.0 s for 32-wide ones
  // (the statistics are the same floats: each column propagates alone).
  if (block_columns <= 0) block_columns = std::max<std::int64_t>(16, (std::int64_t{32} << 20) / x.rows() / 16 * 16);
  ForEachPropagatedBlock(x, p, steps, block_columns, GatherPrecision::kFloat,
                         [&](std::int64_t first, std::size_t i, const Matrix& block, std::int64_t) {
                           StandardiseBlockColumns(block, static_cast<std::size_t>(first), &out[i]);
                         });
  return out;
}

FactoredFeatures PropagatePacked(const FactoredFeatures& x, std::shared_ptr<const SparseMatrix> p,
                                 std::shared_ptr<const SparseMatrix> p_t, int steps, bool standardise,
                                 std::int64_t block_columns) {
  ColumnStandardisation s;
  s.mean.assign(static_cast<std::size_t>(x.cols()), 0.0);
  s.scale.assign(static_cast<std::size_t>(x.cols()), 0.0);
  auto packed = std::make_shared<PackedRows>(x.rows(), x.cols());
  const SparseMatrix& propagation = steps > 0 ? *p : x.sparse;  // not read at 0 steps
  // Blocks of 64 columns read as bfloat16: two cache lines a row, each
  // gather bringing twice the columns of a 32-wide float block's. The
  // values end as bfloat16 anyway (docs/roofline.md has the pass's times).
  if (block_columns <= 0) block_columns = 64;
  ForEachPropagatedBlock(x, propagation, {steps}, block_columns, GatherPrecision::kBf16,
                         [&](std::int64_t first, std::size_t, Matrix& block, std::int64_t width) {
    if (standardise) {  // the columns of zeros past `width` stay zero
      StandardiseBlockColumns(block, static_cast<std::size_t>(first), &s, width);
      const double* mean = s.mean.data() + first;
      const double* scale = s.scale.data() + first;
      ForEachRowBlock(block.rows(), [&](int, Eigen::Index begin, Eigen::Index end) {
        for (Eigen::Index r = begin; r < end; ++r) {
          float* row = block.row(r).data();
          for (Eigen::Index c = 0; c < width; ++c) row[c] = static_cast<float>((row[c] - mean[c]) * scale[c]);
        }
      });
    }
    packed->SetColumns(block, first);
  });
  FactoredFeatures out = PropagateFactored(x, std::move(p), std::move(p_t), steps, standardise ? &s : nullptr);
  out.packed = std::move(packed);
  return out;
}

FactoredFeatures PropagateFactored(const FactoredFeatures& x, std::shared_ptr<const SparseMatrix> p,
                                   std::shared_ptr<const SparseMatrix> p_t, int steps,
                                   const ColumnStandardisation* standardisation) {
  FactoredFeatures out;
  out.sparse = x.sparse;
  out.steps = steps;
  if (steps > 0) {
    out.propagation = std::move(p);
    out.propagation_t = std::move(p_t);
  }
  // P^k L: r columns, k narrow products.
  Matrix left = x.left, next;
  for (int k = 0; k < steps && left.cols() > 0; ++k) {
    SpMM(*out.propagation, left, &next);
    left.swap(next);
  }
  if (standardisation == nullptr) {
    out.left = std::move(left);
    out.right = x.right;
    return out;
  }
  const Eigen::Index n = static_cast<Eigen::Index>(x.rows()), d = static_cast<Eigen::Index>(x.cols());
  const Eigen::Index r = left.cols();
  if (out.sparse.unit_weights()) out.sparse.values.assign(static_cast<std::size_t>(out.sparse.nnz()), 1.0f);
  for (std::int64_t k = 0; k < out.sparse.nnz(); ++k) {
    out.sparse.values[static_cast<std::size_t>(k)] = static_cast<float>(
        out.sparse.values[static_cast<std::size_t>(k)] * standardisation->scale[static_cast<std::size_t>(out.sparse.indices[k])]);
  }
  out.left.resize(n, r + 1);
  out.left.leftCols(r) = left;
  out.left.col(r).setOnes();
  out.right.resize(r + 1, d);
  for (Eigen::Index c = 0; c < d; ++c) {
    const double scale = standardisation->scale[static_cast<std::size_t>(c)];
    for (Eigen::Index i = 0; i < r; ++i) out.right(i, c) = static_cast<float>(x.right(i, c) * scale);
    out.right(r, c) = static_cast<float>(-standardisation->mean[static_cast<std::size_t>(c)] * scale);
  }
  return out;
}

}  // namespace ldpgraph
