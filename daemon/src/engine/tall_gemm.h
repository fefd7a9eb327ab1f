// Products of tall, narrow row-major matrices: the Linear layers of the GNNs
// (node states n x 64 times a 64 x 64 weight, and the weight gradient
// X^T G). Eigen's GEMM packs the tall operand into a buffer before every
// product because the small one leaves it nothing to amortise the packing
// over; on REDDIT-BINARY that packing was a fifth of the GEMM time. These
// kernels read both operands in place, keep an R x (V vectors) tile of the
// output in registers and stream the inner dimension through it.
//
// C (rows x cols) = or += A B over an inner dimension `inner`, where A is
// addressed with two strides, so that both A = X (row stride k, inner stride
// 1) and A = X^T (row stride 1, inner stride k) need no copy:
//   A(r, p) = a[r * a_row_stride + p * a_inner_stride]
//   B(p, j) = b[p * ldb + j],  C(r, j) = c[r * ldc + j]
// Any shape is accepted; column counts that are not a whole number of
// vector lanes fall back to Eigen. The tiles themselves are in
// kernels/isa_kernels.cc, compiled per x86-64 level and picked at run time.
#ifndef LDPGRAPH_DAEMON_ENGINE_TALL_GEMM_H_
#define LDPGRAPH_DAEMON_ENGINE_TALL_GEMM_H_

#include <cstddef>

#include "engine/gemm_operands.h"

namespace ldpgraph {

// C = A B (accumulate false) or C += A B (accumulate true), single-threaded:
// callers split rows (or the inner dimension) across threads themselves.
// With `bias` (cols floats), each row of the result then gets it added, as the
// tile is stored: the same sums, bit for bit, as adding it in a pass after,
// without that pass over C.
void TallGemm(const GemmOperands& m, std::ptrdiff_t rows, std::ptrdiff_t cols, std::ptrdiff_t inner,
              bool accumulate);

// The same by the reference path (Eigen), for tests and odd shapes.
void ReferenceGemm(const GemmOperands& m, std::ptrdiff_t rows, std::ptrdiff_t cols, std::ptrdiff_t inner,
                   bool accumulate);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_ENGINE_TALL_GEMM_H_
