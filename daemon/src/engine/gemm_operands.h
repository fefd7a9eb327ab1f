// The operands of one product C = A B (or C += A B) as the GEMM kernels take
// them: A by two strides, so that X and X^T need no copy (tall_gemm.h), B and
// C row-major. Its own header because both the product's entry point
// (tall_gemm.h) and the per-ISA kernel table (kernels/kernel_table.h) use it.
#ifndef LDPGRAPH_DAEMON_ENGINE_GEMM_OPERANDS_H_
#define LDPGRAPH_DAEMON_ENGINE_GEMM_OPERANDS_H_

#include <cstddef>

namespace ldpgraph {

struct GemmOperands {
  const float* a;
  std::ptrdiff_t a_row_stride, a_inner_stride;
  const float* b;
  std::ptrdiff_t ldb;
  float* c;
  std::ptrdiff_t ldc;
  const float* bias = nullptr;  // optional: added to every row of the result
  // May round A and B to bfloat16 (sums stay float) where the CPU multiplies
  // those far faster (Bf16Kernels(), kernel_table.h) and the shape suits it;
  // exact float products otherwise.
  bool bf16 = false;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_ENGINE_GEMM_OPERANDS_H_
