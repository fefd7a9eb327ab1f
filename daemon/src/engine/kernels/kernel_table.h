// KernelTable: the engine's hot loops, compiled once per x86-64 level and
// picked at run time for the CPU the process runs on. The rest of the
// library is built for the portable x86-64 baseline, so one binary runs on
// any x86-64 and still multiplies with AVX2 + FMA (or AVX-512) where the CPU
// has them.
//
// isa_kernels.cc is compiled once per level, each time inside its own
// namespace; its functions take raw pointers only and instantiate no
// template shared with other files (no Eigen, no std algorithm), so no
// inline function compiled for AVX2 can be picked by the linker for a caller
// on the baseline (kernel_symbols_test checks the object files).
#ifndef LDPGRAPH_DAEMON_ENGINE_KERNELS_KERNEL_TABLE_H_
#define LDPGRAPH_DAEMON_ENGINE_KERNELS_KERNEL_TABLE_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/gemm_operands.h"

namespace ldpgraph {

struct KernelTable {
  // fma_chains' independent chains: enough to cover the latency of two FMA
  // units, few enough to stay in registers.
  static constexpr int kFmaChains = 12;
  // SELU's constants (Klambauer et al., 2017).
  static constexpr float kSeluScale = 1.0507009873554805f;
  static constexpr float kSeluAlpha = 1.6732632423543772f;

  const char* isa;  // "x86-64" (SSE2), "x86-64-v3" (AVX2, FMA), "x86-64-v4" (AVX-512)
  int float_lanes;  // the vector width the loops are written for

  // TallGemm's register-tile path (see tall_gemm.h); `cols` a multiple of
  // float_lanes, rows, cols and inner positive.
  void (*tall_gemm)(const GemmOperands& m, std::ptrdiff_t rows, std::ptrdiff_t cols, std::ptrdiff_t inner,
                    bool accumulate);
  // The same for fewer columns than a vector has lanes (a last layer's
  // class scores): one row of C at a time, its columns in registers; or,
  // for A addressed transposed (a_row_stride 1: a weight gradient X^T G),
  // `rows` a multiple of the lanes up to 4 vectors and cols up to 4, one
  // pass over X's rows into accumulators.
  void (*narrow_gemm)(const GemmOperands& m, std::ptrdiff_t rows, std::ptrdiff_t cols, std::ptrdiff_t inner,
                      bool accumulate);

  // Passes over `rows` rows of `f` floats (row-major, contiguous):
  // acc[c] += sum_r x[r][c] (BatchNorm's mean, bias gradients, pooling)
  void (*column_sums)(const float* x, std::ptrdiff_t rows, std::ptrdiff_t f, float* acc);
  // out[r][c] = row[c] (overwrite) or out[r][c] += row[c] (pooling's gradient;
  // a Linear layer's bias is added in TallGemm's tiles instead)
  void (*broadcast_row)(const float* row, std::ptrdiff_t rows, std::ptrdiff_t f, float* out, bool overwrite);
  // BatchNorm's own (xhat = (x - mean) invstd, recomputed where needed,
  // never stored):
  // acc[c] += sum_r (x[r][c] - mean[c])^2
  void (*squared_deviations)(const float* x, std::ptrdiff_t rows, std::ptrdiff_t f, const float* mean, float* acc);
  // sum[c] += sum_r (x[r][c] - shift[c]) and squares[c] += the same squared:
  // both moments in one pass (LinearBatchNorm), exact enough when the shift
  // is near the mean (the running mean).
  void (*shifted_moments)(const float* x, std::ptrdiff_t rows, std::ptrdiff_t f, const float* shift, float* sum,
                          float* squares);
  // out = xhat gamma + beta, clipped at 0 when relu.
  void (*normalise_rows)(const float* x, std::ptrdiff_t rows, std::ptrdiff_t f, const float* mean,
                         const float* invstd, const float* gamma, const float* beta, float* out, bool relu);
  // With relu, grad is zeroed in place where out was clipped; then
  // sum_g[c] += sum_r grad[r][c] and sum_gx[c] += sum_r grad[r][c] xhat[r][c].
  void (*gradient_sums)(float* grad, const float* out, const float* x, const float* mean, const float* invstd,
                        std::ptrdiff_t rows, std::ptrdiff_t f, float* sum_g, float* sum_gx, bool relu);
  // d = (grad - mean_g - xhat mean_gx) k; out = d (fresh) or out += d.
  void (*input_gradient_rows)(const float* grad, const float* x, const float* mean, const float* invstd,
                              std::ptrdiff_t rows, std::ptrdiff_t f, const float* mean_g, const float* mean_gx,
                              const float* k, float* out, bool fresh);

  // Rows [begin, end) of y = A x for a CSR matrix A (weights null: all 1),
  // x and y row-major with `width` columns. With `prefetch`, the rows of x
  // that later indices name are prefetched (SpMM always asks for it: see
  // sparse_matrix.cc; without is the plain loop the tests compare against).
  void (*sparse_rows)(const std::int64_t* offsets, const std::int32_t* indices, const float* weights,
                      const float* x, std::ptrdiff_t width, std::int64_t begin, std::int64_t end, bool prefetch,
                      float* y);
  // The same with x's rows stored as bfloat16 (a float's upper 16 bits),
  // summed in float; `width` 16, 32 or 64 only.
  void (*sparse_rows_bf16)(const std::int64_t* offsets, const std::int32_t* indices, const float* weights,
                           const std::uint16_t* x, std::ptrdiff_t width, std::int64_t begin, std::int64_t end,
                           bool prefetch, float* y);
  // Rows [begin, end) of g scattered into out: out[indices[k]] += weights[k]
  // g[r] for each entry k of row r (weights null: all 1; a dropped entry's
  // weight 0 adds nothing), rows `width` wide: A^T g without forming A^T,
  // the weight gradient of a sparse input's product. `out` is small (the
  // input's columns x width) and stays in cache.
  void (*scatter_rows)(const std::int64_t* offsets, const std::int32_t* indices, const float* weights,
                       const float* g, std::ptrdiff_t width, std::int64_t begin, std::int64_t end, float* out);
  // out[i] = x[i] rounded to the nearest bfloat16, ties to even (a NaN stays
  // a NaN).
  void (*round_to_bf16)(const float* x, std::int64_t count, std::uint16_t* out);

  // SELU, y = scale x for x > 0 and scale alpha (e^x - 1) otherwise, over
  // `count` floats (x and y may be the same).
  void (*selu)(const float* x, std::int64_t count, float* y);
  // Its gradient from its input x and output y: g scale for x > 0, else
  // g (y + scale alpha); into gx (fresh) or added to it.
  void (*selu_gradient)(const float* x, const float* y, const float* g, std::int64_t count, float* gx, bool fresh);

  // Products of packed rows (engine/packed_rows.h) with vector FMAs, for
  // CPUs without AMX; the arguments as Bf16KernelTable's packed_product and
  // packed_gradient, but W and G are read as floats, not rounded.
  void (*packed_product)(const std::uint16_t* z, std::ptrdiff_t cols, std::ptrdiff_t begin, std::ptrdiff_t end,
                         const float* w, std::ptrdiff_t ldw, std::ptrdiff_t out, float* y, std::ptrdiff_t ldy,
                         std::ptrdiff_t rows, bool accumulate);
  void (*packed_gradient)(const std::uint16_t* z, std::ptrdiff_t cols, std::ptrdiff_t begin, std::ptrdiff_t end,
                          const float* g, std::ptrdiff_t ldg, std::ptrdiff_t out, std::ptrdiff_t rows, float* gt);

  // `steps` rounds of kFmaChains independent multiply-add chains of
  // float_lanes lanes each (2 x kFmaChains x lanes flops a round): the
  // core's peak, for benchmarks.
  float (*fma_chains)(float start, std::int64_t steps);
};

// TallGemm with bfloat16 inputs on Intel AMX tiles (amx_kernels.cc): A and B
// rounded to the nearest bfloat16 (ties to even), their products summed in
// float. About 3 significant digits per input instead of 7, for 10x the
// Linear layers' speed; used where a caller asks (GemmOperands::bf16).
struct Bf16KernelTable {
  static constexpr std::ptrdiff_t kMaxInner = 256;
  static constexpr std::ptrdiff_t kMaxCols = 256;
  // TallGemm's contract for A read row by row (a_inner_stride 1), inner a
  // multiple of 32 up to kMaxInner, cols a multiple of 16 up to kMaxCols.
  void (*tall_gemm)(const GemmOperands& m, std::ptrdiff_t rows, std::ptrdiff_t cols, std::ptrdiff_t inner,
                    bool accumulate);
  // The same for A read as X^T (a_row_stride 1, a_inner_stride >= rows:
  // the weight gradient X^T G), rows and cols multiples of 16 up to kMaxCols,
  // any inner.
  void (*transposed_gemm)(const GemmOperands& m, std::ptrdiff_t rows, std::ptrdiff_t cols, std::ptrdiff_t inner,
                          bool accumulate);
  // Products of packed rows (engine/packed_rows.h: bfloat16 values, users
  // in pairs, `cols` columns a multiple of 16, pair rows [begin, end) whole
  // blocks of 16), `out` a multiple of 16 up to kMaxCols:
  // Y (rows x out, row stride ldy) (+)= Z W, W rounded to bfloat16 (cols x
  // out, row stride ldw; only Y's first `rows` rows are written) ...
  void (*packed_product)(const std::uint16_t* z, std::ptrdiff_t cols, std::ptrdiff_t begin, std::ptrdiff_t end,
                         const float* w, std::ptrdiff_t ldw, std::ptrdiff_t out, float* y, std::ptrdiff_t ldy,
                         std::ptrdiff_t rows, bool accumulate);
  // ... and gt (out x cols, row stride cols) += G^T Z, G (rows x out, row
  // stride ldg) rounded to bfloat16, its rows past `rows` zero.
  void (*packed_gradient)(const std::uint16_t* z, std::ptrdiff_t cols, std::ptrdiff_t begin, std::ptrdiff_t end,
                          const float* g, std::ptrdiff_t ldg, std::ptrdiff_t out, std::ptrdiff_t rows, float* gt);
  // `steps` rounds of 4 independent 16 x 16 x 32 tile products
  // (4 x 16,384 flops a round): the core's bfloat16 peak, for benchmarks.
  float (*tile_chains)(std::int64_t steps);
};

// The AMX table when this CPU has AMX-BF16 and AVX512-BF16, the AVX-512
// level is in use (LDPGRAPH_ISA may pick a narrower one) and Linux grants
// the process the tile state; null otherwise. Decided once.
const Bf16KernelTable* Bf16Kernels();

// The table for this CPU, chosen once: the widest level it supports, or the
// one LDPGRAPH_ISA names (x86-64, x86-64-v3, x86-64-v4) if the CPU has it.
const KernelTable& Kernels();

// Every level this CPU can run, narrowest first (for tests and benchmarks).
std::vector<const KernelTable*> SupportedKernelTables();

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_ENGINE_KERNELS_KERNEL_TABLE_H_
