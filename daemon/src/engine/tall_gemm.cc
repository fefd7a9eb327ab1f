#include "engine/tall_gemm.h"

#include <Eigen/Core>
#include <algorithm>
#include <cstring>

#include "engine/kernels/kernel_table.h"

namespace ldpgraph {
namespace {

using RowMajorMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using StridedConstMap = Eigen::Map<const RowMajorMatrix, 0, Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>>;
using StridedMap = Eigen::Map<RowMajorMatrix, 0, Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>>;

}  // namespace

void ReferenceGemm(const GemmOperands& m, std::ptrdiff_t rows, std::ptrdiff_t cols, std::ptrdiff_t inner,
                   bool accumulate) {
  StridedConstMap a(m.a, rows, inner, {m.a_row_stride, m.a_inner_stride});
  StridedConstMap b(m.b, inner, cols, {m.ldb, 1});
  StridedMap c(m.c, rows, cols, {m.ldc, 1});
  if (accumulate) {
    c.noalias() += a * b;
  } else {
    c.noalias() = a * b;
  }
  if (m.bias) c.rowwise() += Eigen::Map<const Eigen::RowVectorXf>(m.bias, cols);
}

void TallGemm(const GemmOperands& m, std::ptrdiff_t rows, std::ptrdiff_t cols, std::ptrdiff_t inner,
              bool accumulate) {
  if (rows <= 0 || cols <= 0) return;
  if (m.bf16 && inner > 0 && cols % 16 == 0 && cols <= Bf16KernelTable::kMaxCols) {
    const Bf16KernelTable* bf16 = Bf16Kernels();
    if (bf16 != nullptr && m.a_inner_stride == 1 && inner % 32 == 0 && inner <= Bf16KernelTable::kMaxInner) {
      return bf16->tall_gemm(m, rows, cols, inner, accumulate);
    }
    if (bf16 != nullptr && m.a_row_stride == 1 && m.a_inner_stride >= rows && rows % 16 == 0 &&
        rows <= Bf16KernelTable::kMaxCols) {
      return bf16->transposed_gemm(m, rows, cols, inner, accumulate);
    }
  }
  const KernelTable& kernels = Kernels();
  // Fewer columns than lanes (the last layer's class scores: 10^6 x 16 by
  // 16 x 4 took Eigen 8.6 times its memory bound): rows in registers, in
  // the forward form and in the weight gradient's where its rows fill
  // whole vectors. Other weight gradients stay with Eigen's packed product.
  const bool narrow_forward = m.a_inner_stride == 1;
  const bool narrow_gradient = m.a_row_stride == 1 && m.a_inner_stride >= rows && rows % kernels.float_lanes == 0 &&
                               rows <= 4 * kernels.float_lanes && cols <= 4;
  if (cols < kernels.float_lanes && inner > 0 && (narrow_forward || narrow_gradient)) {
    return kernels.narrow_gemm(m, rows, cols, inner, accumulate);
  }
  if (cols % kernels.float_lanes != 0) return ReferenceGemm(m, rows, cols, inner, accumulate);
  if (inner <= 0) {
    for (std::ptrdiff_t r = 0; r < rows; ++r) {
      float* c = m.c + r * m.ldc;
      if (!accumulate) std::fill_n(c, cols, 0.0f);
      if (m.bias) std::transform(c, c + cols, m.bias, c, [](float x, float b) { return x + b; });
    }
    return;
  }
  kernels.tall_gemm(m, rows, cols, inner, accumulate);
}

}  // namespace ldpgraph
