// The engine's hot loops for one x86-64 level. CMake compiles this file once
// per level with that level's -march and LDPGRAPH_KERNEL_NS / _ISA set, so
// each copy lives in a namespace of its own and exports one symbol, its
// KernelTable. Everything else here has internal linkage, and nothing is
// included that defines inline functions the linker could share with code
// built for another level: a vector extension type, __builtin_memcpy and
// plain loops only.
#include "engine/kernels/kernel_table.h"

#if !defined(LDPGRAPH_KERNEL_NS) || !defined(LDPGRAPH_KERNEL_ISA)
#error "compile with -DLDPGRAPH_KERNEL_NS=<namespace> -DLDPGRAPH_KERNEL_ISA=\"<level>\""
#endif

namespace ldpgraph {
namespace LDPGRAPH_KERNEL_NS {
namespace {

#if defined(__AVX512F__)
constexpr int kLanes = 16;
#elif defined(__AVX__)
constexpr int kLanes = 8;
#else
constexpr int kLanes = 4;
#endif

// The compiler maps it to zmm, ymm or xmm registers; `scalar * vector`
// broadcasts, and `+=` of a product contracts to a fused multiply-add.
typedef float Vec __attribute__((vector_size(kLanes * sizeof(float))));

inline Vec Load(const float* p) {
  Vec v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}

inline void Store(float* p, const Vec& v) { __builtin_memcpy(p, &v, sizeof v); }

// ---- TallGemm's register tiles (the Linear layers: n x 64 by 64 x 64) ----

// kMaxRows x kMaxVectors accumulators, plus the B vectors of one inner step
// and a broadcast, fit the register file (32 zmm with AVX-512: 24 + 4 + 1;
// 16 ymm with AVX: 12 + 2 + 1; 16 xmm with SSE: 12 + 2 + 1).
constexpr int kMaxVectors = kLanes == 16 ? 4 : 2;
constexpr int kMaxRows = 6;
// The inner dimension is streamed in blocks whose A and B rows stay in L2
// while every tile of C passes over them (the weight gradient's inner
// dimension is the batch's node count).
constexpr std::ptrdiff_t kInnerBlock = 256;

// C[row .. row+R, col .. col+V*kLanes] (+)= A B over inner [p0, p1), then
// + the bias when `last` (the inner dimension's last block).
template <int R, int V>
void Tile(const GemmOperands& m, std::ptrdiff_t row, std::ptrdiff_t col, std::ptrdiff_t p0, std::ptrdiff_t p1,
          bool accumulate, bool last) {
  Vec acc[R][V];
  float* c = m.c + row * m.ldc + col;
  for (int r = 0; r < R; ++r) {
    for (int v = 0; v < V; ++v) acc[r][v] = accumulate ? Load(c + r * m.ldc + v * kLanes) : Vec{};
  }
  const float* a = m.a + row * m.a_row_stride;
  for (std::ptrdiff_t p = p0; p < p1; ++p) {
    const float* b = m.b + p * m.ldb + col;
    Vec bv[V];
    for (int v = 0; v < V; ++v) bv[v] = Load(b + v * kLanes);
    const float* ap = a + p * m.a_inner_stride;
    for (int r = 0; r < R; ++r) {
      const float s = ap[r * m.a_row_stride];
      for (int v = 0; v < V; ++v) acc[r][v] += s * bv[v];
    }
  }
  if (last && m.bias) {
    Vec bias[V];
    for (int v = 0; v < V; ++v) bias[v] = Load(m.bias + col + v * kLanes);
    for (int r = 0; r < R; ++r) {
      for (int v = 0; v < V; ++v) acc[r][v] += bias[v];
    }
  }
  for (int r = 0; r < R; ++r) {
    for (int v = 0; v < V; ++v) Store(c + r * m.ldc + v * kLanes, acc[r][v]);
  }
}

template <int V>
void TileRows(const GemmOperands& m, std::ptrdiff_t rows, std::ptrdiff_t col, std::ptrdiff_t p0, std::ptrdiff_t p1,
              bool accumulate, bool last) {
  std::ptrdiff_t row = 0;
  for (; row + kMaxRows <= rows; row += kMaxRows) Tile<kMaxRows, V>(m, row, col, p0, p1, accumulate, last);
  switch (rows - row) {
    case 5: Tile<5, V>(m, row, col, p0, p1, accumulate, last); break;
    case 4: Tile<4, V>(m, row, col, p0, p1, accumulate, last); break;
    case 3: Tile<3, V>(m, row, col, p0, p1, accumulate, last); break;
    case 2: Tile<2, V>(m, row, col, p0, p1, accumulate, last); break;
    case 1: Tile<1, V>(m, row, col, p0, p1, accumulate, last); break;
    default: break;
  }
}

void TileColumns(const GemmOperands& m, std::ptrdiff_t rows, std::ptrdiff_t cols, std::ptrdiff_t p0,
                 std::ptrdiff_t p1, bool accumulate, bool last) {
  std::ptrdiff_t col = 0;
  for (; col + kMaxVectors * kLanes <= cols; col += kMaxVectors * kLanes) {
    TileRows<kMaxVectors>(m, rows, col, p0, p1, accumulate, last);
  }
  switch ((cols - col) / kLanes) {
    case 3: TileRows<3>(m, rows, col, p0, p1, accumulate, last); break;
    case 2: TileRows<2>(m, rows, col, p0, p1, accumulate, last); break;
    case 1: TileRows<1>(m, rows, col, p0, p1, accumulate, last); break;
    default: break;
  }
}

void TallGemm(const GemmOperands& m, std::ptrdiff_t rows, std::ptrdiff_t cols, std::ptrdiff_t inner,
              bool accumulate) {
  for (std::ptrdiff_t p0 = 0; p0 < inner; p0 += kInnerBlock) {
    const std::ptrdiff_t p1 = inner < p0 + kInnerBlock ? inner : p0 + kInnerBlock;
    TileColumns(m, rows, cols, p0, p1, accumulate || p0 > 0, p1 == inner);
  }
}

// ---- Row passes (BatchNorm, biases, pooling); __restrict lets the compiler vectorise them ----

void ColumnSums(const float* __restrict x, std::ptrdiff_t rows, std::ptrdiff_t f, float* __restrict acc) {
  for (std::ptrdiff_t r = 0; r < rows; ++r) {
    const float* row = x + r * f;
    for (std::ptrdiff_t c = 0; c < f; ++c) acc[c] += row[c];
  }
}

template <bool kOverwrite>
void BroadcastRowImpl(const float* __restrict row, std::ptrdiff_t rows, std::ptrdiff_t f, float* __restrict out) {
  for (std::ptrdiff_t r = 0; r < rows; ++r) {
    float* o = out + r * f;
    for (std::ptrdiff_t c = 0; c < f; ++c) o[c] = kOverwrite ? row[c] : o[c] + row[c];
  }
}

void BroadcastRow(const float* row, std::ptrdiff_t rows, std::ptrdiff_t f, float* out, bool overwrite) {
  overwrite ? BroadcastRowImpl<true>(row, rows, f, out) : BroadcastRowImpl<false>(row, rows, f, out);
}

void SquaredDeviations(const float* __restrict x, std::ptrdiff_t rows, std::ptrdiff_t f,
                       const float* __restrict mean, float* __restrict acc) {
  for (std::ptrdiff_t r = 0; r < rows; ++r) {
    const float* row = x + r * f;
    for (std::ptrdiff_t c = 0; c < f; ++c) acc[c] += (row[c] - mean[c]) * (row[c] - mean[c]);
  }
}

void ShiftedMoments(const float* __restrict x, std::ptrdiff_t rows, std::ptrdiff_t f, const float* __restrict shift,
                    float* __restrict sum, float* __restrict squares) {
  for (std::ptrdiff_t r = 0; r < rows; ++r) {
    const float* row = x + r * f;
    for (std::ptrdiff_t c = 0; c < f; ++c) {
      const float d = row[c] - shift[c];
      sum[c] += d;
      squares[c] += d * d;
    }
  }
}

// BatchNorm keeps no normalised copy of its input for the backward pass:
// both backward kernels recompute xhat = (x - mean) invstd from the input,
// which the tape holds anyway, with the same two operations as the forward
// pass (bit for bit the same values). One N x F write and its memory fewer
// per BatchNorm.
inline float Normalised(float x, float mean, float invstd) { return (x - mean) * invstd; }

template <bool kRelu>
void NormaliseRowsImpl(const float* __restrict x, std::ptrdiff_t rows, std::ptrdiff_t f,
                       const float* __restrict mean, const float* __restrict invstd, const float* __restrict gamma,
                       const float* __restrict beta, float* __restrict out) {
  for (std::ptrdiff_t r = 0; r < rows; ++r) {
    const float* row = x + r * f;
    float* o = out + r * f;
    for (std::ptrdiff_t c = 0; c < f; ++c) {
      const float v = Normalised(row[c], mean[c], invstd[c]) * gamma[c] + beta[c];
      o[c] = kRelu ? (v > 0.0f ? v : 0.0f) : v;
    }
  }
}

void NormaliseRows(const float* x, std::ptrdiff_t rows, std::ptrdiff_t f, const float* mean, const float* invstd,
                   const float* gamma, const float* beta, float* out, bool relu) {
  relu ? NormaliseRowsImpl<true>(x, rows, f, mean, invstd, gamma, beta, out)
       : NormaliseRowsImpl<false>(x, rows, f, mean, invstd, gamma, beta, out);
}

template <bool kRelu>
void GradientSumsImpl(float* __restrict grad, const float* __restrict out, const float* __restrict x,
                      const float* __restrict mean, const float* __restrict invstd, std::ptrdiff_t rows,
                      std::ptrdiff_t f, float* __restrict sum_g, float* __restrict sum_gx) {
  for (std::ptrdiff_t r = 0; r < rows; ++r) {
    float* gr = grad + r * f;
    const float* o = out + r * f;
    const float* row = x + r * f;
    for (std::ptrdiff_t c = 0; c < f; ++c) {
      const float g = kRelu && !(o[c] > 0.0f) ? 0.0f : gr[c];
      gr[c] = g;
      sum_g[c] += g;
      sum_gx[c] += g * Normalised(row[c], mean[c], invstd[c]);
    }
  }
}

void GradientSums(float* grad, const float* out, const float* x, const float* mean, const float* invstd,
                  std::ptrdiff_t rows, std::ptrdiff_t f, float* sum_g, float* sum_gx, bool relu) {
  relu ? GradientSumsImpl<true>(grad, out, x, mean, invstd, rows, f, sum_g, sum_gx)
       : GradientSumsImpl<false>(grad, out, x, mean, invstd, rows, f, sum_g, sum_gx);
}

template <bool kFresh>
void InputGradientRowsImpl(const float* __restrict grad, const float* __restrict x, const float* __restrict mean,
                           const float* __restrict invstd, std::ptrdiff_t rows, std::ptrdiff_t f,
                           const float* __restrict mean_g, const float* __restrict mean_gx,
                           const float* __restrict k, float* __restrict out) {
  for (std::ptrdiff_t r = 0; r < rows; ++r) {
    const float* g = grad + r * f;
    const float* row = x + r * f;
    float* o = out + r * f;
    for (std::ptrdiff_t c = 0; c < f; ++c) {
      const float d = (g[c] - mean_g[c] - Normalised(row[c], mean[c], invstd[c]) * mean_gx[c]) * k[c];
      o[c] = kFresh ? d : o[c] + d;
    }
  }
}

void InputGradientRows(const float* grad, const float* x, const float* mean, const float* invstd, std::ptrdiff_t rows,
                       std::ptrdiff_t f, const float* mean_g, const float* mean_gx, const float* k, float* out,
                       bool fresh) {
  fresh ? InputGradientRowsImpl<true>(grad, x, mean, invstd, rows, f, mean_g, mean_gx, k, out)
        : InputGradientRowsImpl<false>(grad, x, mean, invstd, rows, f, mean_g, mean_gx, k, out);
}

// ---- Sparse aggregation: one CSR row times x at a time ----

// x's rows as floats, or as bfloat16: a float's upper 16 bits, widened back
// by a shift, so a row of 64 costs two cache lines instead of four.
typedef std::uint16_t HalfVec __attribute__((vector_size(kLanes * sizeof(std::uint16_t))));
typedef std::uint32_t WordVec __attribute__((vector_size(kLanes * sizeof(std::uint32_t))));

inline Vec LoadLanes(const float* p) { return Load(p); }
inline Vec LoadLanes(const std::uint16_t* p) {
  HalfVec half;
  __builtin_memcpy(&half, p, sizeof half);
  const WordVec word = __builtin_convertvector(half, WordVec) << 16;
  Vec v;
  __builtin_memcpy(&v, &word, sizeof v);
  return v;
}

// How many neighbours ahead a row is prefetched: a row from memory takes
// ~100 ns, a neighbour's sum a few ns, so about this many rows must be on
// their way at once to keep the memory busy.
constexpr std::int64_t kPrefetchAhead = 16;

// Asks for the cache lines of a row of W elements (up to 256 bytes), which
// may start anywhere in a line. Written out rather than as a loop: GCC 12
// dropped the loop's prefetches from the 32- and 64-float rows.
template <int W, typename T>
inline void PrefetchRow(const T* row) {
  constexpr int kBytes = W * static_cast<int>(sizeof(T));
  static_assert(kBytes <= 256, "a row of at most four lines");
  const char* p = reinterpret_cast<const char*>(row);
  __builtin_prefetch(p);
  if constexpr (kBytes > 64) __builtin_prefetch(p + 64);
  if constexpr (kBytes > 128) __builtin_prefetch(p + 128);
  if constexpr (kBytes > 192) __builtin_prefetch(p + 192);
  __builtin_prefetch(p + kBytes - 1);
}

// Width known at compile time (the hidden sizes, class counts): the row's
// accumulator lives in registers. With kPrefetch, each step also asks for
// the row that the index kPrefetchAhead places later names, as long as that
// index comes before `stop` (the end of the caller's indices): rows are read
// in the graph's order, which no hardware prefetcher predicts. The loop is
// split where those indices run out, so the steps test nothing.
template <int W, bool kUnit, bool kPrefetch, typename T>
void RowProductFixed(const T* x, const std::int32_t* idx, const float* w, std::int64_t count,
                     const std::int32_t* stop, float* out) {
  std::int64_t ahead = 0;  // steps that prefetch
  if constexpr (kPrefetch) {
    const std::int64_t named = (stop - idx) - kPrefetchAhead;
    ahead = named < 0 ? 0 : (named < count ? named : count);
  }
  if constexpr (W % kLanes == 0) {
    constexpr int V = W / kLanes;
    Vec acc[V] = {};
    auto step = [&](std::int64_t k) {
      const T* xr = x + static_cast<std::int64_t>(idx[k]) * W;
      for (int v = 0; v < V; ++v) {
        if constexpr (kUnit) {
          acc[v] += LoadLanes(xr + v * kLanes);
        } else {
          acc[v] += w[k] * LoadLanes(xr + v * kLanes);
        }
      }
    };
    std::int64_t k = 0;
    for (; k < ahead; ++k) {
      PrefetchRow<W>(x + static_cast<std::int64_t>(idx[k + kPrefetchAhead]) * W);
      step(k);
    }
    for (; k < count; ++k) step(k);
    for (int v = 0; v < V; ++v) Store(out + v * kLanes, acc[v]);
  } else {
    static_assert(sizeof(T) == sizeof(float), "bfloat16 rows are read as whole vectors");
    float acc[W] = {};
    auto step = [&](std::int64_t k) {
      const T* xr = x + static_cast<std::int64_t>(idx[k]) * W;
      for (int c = 0; c < W; ++c) acc[c] += kUnit ? xr[c] : w[k] * xr[c];
    };
    std::int64_t k = 0;
    for (; k < ahead; ++k) {
      PrefetchRow<W>(x + static_cast<std::int64_t>(idx[k + kPrefetchAhead]) * W);
      step(k);
    }
    for (; k < count; ++k) step(k);
    for (int c = 0; c < W; ++c) out[c] = acc[c];
  }
}

template <int W, typename T>
void RowProduct(bool unit, bool prefetch, const T* x, const std::int32_t* idx, const float* w, std::int64_t count,
                const std::int32_t* stop, float* out) {
  if (prefetch) {
    unit ? RowProductFixed<W, true, true>(x, idx, w, count, stop, out)
         : RowProductFixed<W, false, true>(x, idx, w, count, stop, out);
  } else {
    unit ? RowProductFixed<W, true, false>(x, idx, w, count, stop, out)
         : RowProductFixed<W, false, false>(x, idx, w, count, stop, out);
  }
}

void RowProductDynamic(const float* __restrict x, std::ptrdiff_t width, const std::int32_t* idx, const float* w,
                       std::int64_t count, float* __restrict out) {
  for (std::ptrdiff_t c = 0; c < width; ++c) out[c] = 0.0f;
  for (std::int64_t k = 0; k < count; ++k) {
    const float* xr = x + static_cast<std::int64_t>(idx[k]) * width;
    const float s = w == nullptr ? 1.0f : w[k];
    for (std::ptrdiff_t c = 0; c < width; ++c) out[c] += s * xr[c];
  }
}

// One row of class scores (Drop's label propagation, a last layer
// aggregated after its product), or of any other width.
void NarrowRowProduct(bool unit, bool prefetch, const float* x, std::ptrdiff_t width, const std::int32_t* idx,
                      const float* w, std::int64_t count, const std::int32_t* stop, float* out) {
  switch (width) {
    case 8: RowProduct<8>(unit, prefetch, x, idx, w, count, stop, out); break;
    case 7: RowProduct<7>(unit, prefetch, x, idx, w, count, stop, out); break;
    case 6: RowProduct<6>(unit, prefetch, x, idx, w, count, stop, out); break;
    case 5: RowProduct<5>(unit, prefetch, x, idx, w, count, stop, out); break;
    case 4: RowProduct<4>(unit, prefetch, x, idx, w, count, stop, out); break;
    case 3: RowProduct<3>(unit, prefetch, x, idx, w, count, stop, out); break;
    case 2: RowProduct<2>(unit, prefetch, x, idx, w, count, stop, out); break;
    default: RowProductDynamic(x, width, idx, w, count, out);
  }
}

// x in L1 (a sparse input's weight rows, 500 x 16 floats): what bounds a
// row is its chain of adds, each waiting on the one before (4 cycles), not
// the loads. So kRows rows are summed at once, their chains interleaved;
// each row adds its terms in the same order as RowProductFixed, so the
// floats are the same. The rows' common length goes round-robin, then each
// row finishes its own tail. As many rows as keep their accumulators and a
// row's vectors in registers.
template <int W>
constexpr int RowsInCache() {
  constexpr int V = W / kLanes;
  return V >= 8 ? 1 : V >= 4 ? 2 : 4;
}

template <int W, bool kUnit>
void RowsProductInCache(const float* x, const std::int64_t* offsets, const std::int32_t* indices,
                        const float* weights, std::int64_t r, float* y) {
  constexpr int V = W / kLanes;
  constexpr int kRows = RowsInCache<W>();
  // Zeroed one register at a time: `= {}` on the array became a rep stos
  // through the stack, a third of the kernel's time.
  Vec acc[kRows][V];
  for (int i = 0; i < kRows; ++i) {
    for (int v = 0; v < V; ++v) acc[i][v] = Vec{};
  }
  std::int64_t common = offsets[r + 1] - offsets[r];
  for (int i = 1; i < kRows; ++i) {
    const std::int64_t count = offsets[r + i + 1] - offsets[r + i];
    common = count < common ? count : common;
  }
  auto step = [&](int i, std::int64_t k) {
    const float* xr = x + static_cast<std::int64_t>(indices[k]) * W;
    for (int v = 0; v < V; ++v) {
      if constexpr (kUnit) {
        acc[i][v] += Load(xr + v * kLanes);
      } else {
        acc[i][v] += weights[k] * Load(xr + v * kLanes);
      }
    }
  };
  for (std::int64_t k = 0; k < common; ++k) {
    for (int i = 0; i < kRows; ++i) step(i, offsets[r + i] + k);
  }
  // Unrolled, so that each row's accumulators stay registers in its tail.
#pragma GCC unroll 4
  for (int i = 0; i < kRows; ++i) {
    for (std::int64_t k = offsets[r + i] + common; k < offsets[r + i + 1]; ++k) step(i, k);
    for (int v = 0; v < V; ++v) Store(y + (r + i) * W + v * kLanes, acc[i][v]);
  }
}

// Rows [begin, end) of a product whose x is in L1, kRows at a time.
template <int W>
std::int64_t InCacheRows(const std::int64_t* offsets, const std::int32_t* indices, const float* weights,
                         const float* x, std::int64_t begin, std::int64_t end, float* y) {
  constexpr int kRows = RowsInCache<W>();
  std::int64_t r = begin;
  for (; r + kRows <= end; r += kRows) {
    weights == nullptr ? RowsProductInCache<W, true>(x, offsets, indices, weights, r, y)
                       : RowsProductInCache<W, false>(x, offsets, indices, weights, r, y);
  }
  return r;
}

// Rows of x as floats (any width) or bfloat16 (the hidden sizes 16, 32, 64
// only: the caller checks).
template <typename T>
void SparseRowsOf(const std::int64_t* offsets, const std::int32_t* indices, const float* weights, const T* x,
                  std::ptrdiff_t width, std::int64_t begin, std::int64_t end, bool prefetch, float* y) {
  const bool unit = weights == nullptr;
  const std::int32_t* stop = indices + offsets[end];
  if constexpr (sizeof(T) == sizeof(float)) {
    if (!prefetch && width % kLanes == 0) {
      switch (width) {
        case 64: begin = InCacheRows<64>(offsets, indices, weights, x, begin, end, y); break;
        case 32: begin = InCacheRows<32>(offsets, indices, weights, x, begin, end, y); break;
        case 16: begin = InCacheRows<16>(offsets, indices, weights, x, begin, end, y); break;
        default: break;
      }
    }
  }
  for (std::int64_t r = begin; r < end; ++r) {
    const std::int64_t first = offsets[r], count = offsets[r + 1] - first;
    const std::int32_t* idx = indices + first;
    const float* wr = unit ? nullptr : weights + first;
    float* out = y + r * width;
    switch (width) {
      case 64: RowProduct<64>(unit, prefetch, x, idx, wr, count, stop, out); break;
      case 32: RowProduct<32>(unit, prefetch, x, idx, wr, count, stop, out); break;
      case 16: RowProduct<16>(unit, prefetch, x, idx, wr, count, stop, out); break;
      default:
        if constexpr (sizeof(T) == sizeof(float)) {
          NarrowRowProduct(unit, prefetch, x, width, idx, wr, count, stop, out);
        } else {
          __builtin_trap();
        }
    }
  }
}

void SparseRows(const std::int64_t* offsets, const std::int32_t* indices, const float* weights, const float* x,
                std::ptrdiff_t width, std::int64_t begin, std::int64_t end, bool prefetch, float* y) {
  SparseRowsOf(offsets, indices, weights, x, width, begin, end, prefetch, y);
}

void SparseRowsBf16(const std::int64_t* offsets, const std::int32_t* indices, const float* weights,
                    const std::uint16_t* x, std::ptrdiff_t width, std::int64_t begin, std::int64_t end, bool prefetch,
                    float* y) {
  SparseRowsOf(offsets, indices, weights, x, width, begin, end, prefetch, y);
}

// ---- A^T g by scattering g's rows (a sparse input's weight gradient) ----

template <int W>
void ScatterRowsFixed(const std::int64_t* offsets, const std::int32_t* indices, const float* weights,
                      const float* g, std::int64_t begin, std::int64_t end, float* out) {
  constexpr int V = W / kLanes;
  for (std::int64_t r = begin; r < end; ++r) {
    Vec gr[V];
    for (int v = 0; v < V; ++v) gr[v] = Load(g + r * W + v * kLanes);
    for (std::int64_t k = offsets[r]; k < offsets[r + 1]; ++k) {
      float* target = out + static_cast<std::int64_t>(indices[k]) * W;
      // No test for dropped entries (weight 0): half of a dropped input's
      // entries are, at random, and the branch cost more than the adds.
      const float s = weights == nullptr ? 1.0f : weights[k];
      for (int v = 0; v < V; ++v) Store(target + v * kLanes, Load(target + v * kLanes) + s * gr[v]);
    }
  }
}

void ScatterRows(const std::int64_t* offsets, const std::int32_t* indices, const float* weights, const float* g,
                 std::ptrdiff_t width, std::int64_t begin, std::int64_t end, float* out) {
  if (width == kLanes) return ScatterRowsFixed<kLanes>(offsets, indices, weights, g, begin, end, out);
  if (width == 2 * kLanes) return ScatterRowsFixed<2 * kLanes>(offsets, indices, weights, g, begin, end, out);
  if (width == 4 * kLanes) return ScatterRowsFixed<4 * kLanes>(offsets, indices, weights, g, begin, end, out);
  for (std::int64_t r = begin; r < end; ++r) {
    const float* gr = g + r * width;
    for (std::int64_t k = offsets[r]; k < offsets[r + 1]; ++k) {
      const float s = weights == nullptr ? 1.0f : weights[k];
      float* target = out + static_cast<std::int64_t>(indices[k]) * width;
      for (std::ptrdiff_t c = 0; c < width; ++c) target[c] += s * gr[c];
    }
  }
}

// Round to nearest, ties to even, on the bits: adding 0x7FFF plus the kept
// part's lowest bit carries into it exactly when the dropped half is above
// one half, or equal to it with an odd kept part. A NaN stays a (quiet) NaN,
// which the carry could otherwise turn into an infinity.
inline std::uint32_t RoundedHalf(std::uint32_t bits) {
  if ((bits & 0x7FFFFFFFu) > 0x7F800000u) return (bits >> 16) | 0x40u;
  return (bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16;
}

void RoundToBf16(const float* x, std::int64_t count, std::uint16_t* out) {
  std::int64_t i = 0;
  for (; i + kLanes <= count; i += kLanes) {
    WordVec bits;
    __builtin_memcpy(&bits, x + i, sizeof bits);
    const WordVec rounded = (bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16;
    const auto is_nan = (bits & 0x7FFFFFFFu) > 0x7F800000u;  // all ones where NaN, signed lanes
    WordVec nan;
    __builtin_memcpy(&nan, &is_nan, sizeof nan);
    const WordVec quiet = (bits >> 16) | 0x40u;
    const HalfVec half = __builtin_convertvector((rounded & ~nan) | (quiet & nan), HalfVec);
    __builtin_memcpy(out + i, &half, sizeof half);
  }
  for (; i < count; ++i) {
    std::uint32_t bits;
    __builtin_memcpy(&bits, x + i, sizeof bits);
    out[i] = static_cast<std::uint16_t>(RoundedHalf(bits));
  }
}

// ---- Narrow products: fewer columns than lanes ----

template <int C>
void NarrowRows(const GemmOperands& m, std::ptrdiff_t rows, std::ptrdiff_t inner, bool accumulate) {
  for (std::ptrdiff_t r = 0; r < rows; ++r) {
    float* c = m.c + r * m.ldc;
    float acc[C];
    for (int j = 0; j < C; ++j) acc[j] = accumulate ? c[j] : 0.0f;
    const float* a = m.a + r * m.a_row_stride;
    for (std::ptrdiff_t p = 0; p < inner; ++p) {
      const float s = a[p * m.a_inner_stride];
      const float* b = m.b + p * m.ldb;
      for (int j = 0; j < C; ++j) acc[j] += s * b[j];
    }
    for (int j = 0; j < C; ++j) c[j] = m.bias ? acc[j] + m.bias[j] : acc[j];
  }
}

// Lanes 2i of p and q (lanes 0..kLanes-1 of p, then of q) plus lanes 2i + 1:
// kLanes partial sums each of p and q, pairs of theirs added, p's first.
// (__builtin_shufflevector, which GCC from 12 and clang both take, with
// each width's lanes spelt out, chosen as kLanes is.)
inline Vec PairSums(Vec p, Vec q) {
#if defined(__AVX512F__)
  return __builtin_shufflevector(p, q, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30) +
         __builtin_shufflevector(p, q, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
#elif defined(__AVX__)
  return __builtin_shufflevector(p, q, 0, 2, 4, 6, 8, 10, 12, 14) +
         __builtin_shufflevector(p, q, 1, 3, 5, 7, 9, 11, 13, 15);
#else
  return __builtin_shufflevector(p, q, 0, 2, 4, 6) + __builtin_shufflevector(p, q, 1, 3, 5, 7);
#endif
}

// The same product for A row by row (a_inner_stride 1) and `inner` a
// whole number V of vectors: each of kLanes rows times each of B's C
// columns is a dot product of V vectors, and a tree of PairSums turns the
// kLanes products of one column into one vector of the rows' sums. A row at
// a time (NarrowRows) multiplies C lanes of a vector at once: 16 -> 4 at
// 10^6 rows ran at 0.2 of its stream bound.
template <int C, int V>
void NarrowDots(const GemmOperands& m, std::ptrdiff_t rows, bool accumulate) {
  Vec columns[C][V];  // B's columns, V vectors each
  for (int j = 0; j < C; ++j) {
    for (int v = 0; v < V; ++v) {
      for (int l = 0; l < kLanes; ++l) columns[j][v][l] = m.b[(v * kLanes + l) * m.ldb + j];
    }
  }
  std::ptrdiff_t r = 0;
  for (; r + kLanes <= rows; r += kLanes) {
    Vec sums[C];
    for (int j = 0; j < C; ++j) {
      Vec level[kLanes];
      for (int l = 0; l < kLanes; ++l) {
        const float* a = m.a + (r + l) * m.a_row_stride;
        Vec dot = Load(a) * columns[j][0];
        for (int v = 1; v < V; ++v) dot += Load(a + v * kLanes) * columns[j][v];
        level[l] = dot;
      }
      for (int width = kLanes; width > 1; width /= 2) {
        for (int i = 0; i < width / 2; ++i) level[i] = PairSums(level[2 * i], level[2 * i + 1]);
      }
      sums[j] = level[0];
    }
    for (int l = 0; l < kLanes; ++l) {
      float* c = m.c + (r + l) * m.ldc;
      for (int j = 0; j < C; ++j) {
        const float v = sums[j][l] + (accumulate ? c[j] : 0.0f);
        c[j] = m.bias ? v + m.bias[j] : v;
      }
    }
  }
  if (r < rows) {
    GemmOperands rest = m;
    rest.a += r * m.a_row_stride;
    rest.c += r * m.ldc;
    NarrowRows<C>(rest, rows - r, V * kLanes, accumulate);
  }
}

template <int C>
bool NarrowDotsOf(const GemmOperands& m, std::ptrdiff_t rows, std::ptrdiff_t inner, bool accumulate) {
  if (m.a_inner_stride != 1 || inner % kLanes != 0) return false;
  switch (inner / kLanes) {
    case 1: NarrowDots<C, 1>(m, rows, accumulate); return true;
    case 2: NarrowDots<C, 2>(m, rows, accumulate); return true;
    case 4: NarrowDots<C, 4>(m, rows, accumulate); return true;
    default: return false;
  }
}

// C (rows x C) = A B with A addressed transposed in place (a_row_stride 1:
// A's column p is row p of X, `rows` wide) and rows a multiple of kLanes:
// the weight gradient X^T G of a narrow layer. One pass over X and G, each
// row of X (V vectors) times each of G's C values into V x C accumulators.
template <int V, int C>
void NarrowTransposedA(const GemmOperands& m, std::ptrdiff_t inner, bool accumulate) {
  Vec acc[C][V];
  for (int j = 0; j < C; ++j) {
    for (int v = 0; v < V; ++v) {
      Vec column{};
      if (accumulate) {
        for (int l = 0; l < kLanes; ++l) column[l] = m.c[(v * kLanes + l) * m.ldc + j];
      }
      acc[j][v] = column;
    }
  }
  for (std::ptrdiff_t p = 0; p < inner; ++p) {
    const float* x = m.a + p * m.a_inner_stride;
    const float* g = m.b + p * m.ldb;
    Vec xv[V];
    for (int v = 0; v < V; ++v) xv[v] = Load(x + v * kLanes);
    for (int j = 0; j < C; ++j) {
      const float gj = g[j];
      for (int v = 0; v < V; ++v) acc[j][v] += gj * xv[v];
    }
  }
  for (int j = 0; j < C; ++j) {
    for (int v = 0; v < V; ++v) {
      for (int l = 0; l < kLanes; ++l) {
        const std::ptrdiff_t i = v * kLanes + l;
        m.c[i * m.ldc + j] = m.bias ? acc[j][v][l] + m.bias[j] : acc[j][v][l];
      }
    }
  }
}

template <int V>
bool NarrowTransposedAOf(const GemmOperands& m, std::ptrdiff_t cols, std::ptrdiff_t inner, bool accumulate) {
  switch (cols) {
    case 1: NarrowTransposedA<V, 1>(m, inner, accumulate); return true;
    case 2: NarrowTransposedA<V, 2>(m, inner, accumulate); return true;
    case 3: NarrowTransposedA<V, 3>(m, inner, accumulate); return true;
    case 4: NarrowTransposedA<V, 4>(m, inner, accumulate); return true;
    default: return false;
  }
}

void NarrowGemm(const GemmOperands& m, std::ptrdiff_t rows, std::ptrdiff_t cols, std::ptrdiff_t inner,
                bool accumulate) {
  if (m.a_row_stride == 1 && m.a_inner_stride >= rows && rows % kLanes == 0 && cols <= 4) {
    const std::ptrdiff_t vectors = rows / kLanes;
    if (vectors == 1 && NarrowTransposedAOf<1>(m, cols, inner, accumulate)) return;
    if (vectors == 2 && NarrowTransposedAOf<2>(m, cols, inner, accumulate)) return;
    if (vectors == 3 && NarrowTransposedAOf<3>(m, cols, inner, accumulate)) return;
    if (vectors == 4 && NarrowTransposedAOf<4>(m, cols, inner, accumulate)) return;
  }
  switch (cols) {
    case 1: return NarrowRows<1>(m, rows, inner, accumulate);
    case 2:
      if (NarrowDotsOf<2>(m, rows, inner, accumulate)) return;
      return NarrowRows<2>(m, rows, inner, accumulate);
    case 3:
      if (NarrowDotsOf<3>(m, rows, inner, accumulate)) return;
      return NarrowRows<3>(m, rows, inner, accumulate);
    case 4:
      if (NarrowDotsOf<4>(m, rows, inner, accumulate)) return;
      return NarrowRows<4>(m, rows, inner, accumulate);
    case 5: return NarrowRows<5>(m, rows, inner, accumulate);
    case 6: return NarrowRows<6>(m, rows, inner, accumulate);
    case 7: return NarrowRows<7>(m, rows, inner, accumulate);
    case 8: return NarrowRows<8>(m, rows, inner, accumulate);
    default: break;
  }
  for (std::ptrdiff_t start = 0; start < cols; start += 8) {  // wider: eight columns at a time
    GemmOperands part = m;
    part.b += start;
    part.c += start;
    if (part.bias) part.bias += start;
    NarrowGemm(part, rows, cols - start < 8 ? cols - start : 8, inner, accumulate);
  }
}

// ---- SELU: branch-free, with its own vector exp ----

typedef std::int32_t IntVec __attribute__((vector_size(kLanes * sizeof(std::int32_t))));

// e^v for v <= 0 (below -87, where e^v leaves the normal floats, as e^-87):
// v = n ln 2 + r with |r| <= ln(2) / 2, e^r by Cephes' degree-6 polynomial
// (relative error about 1e-7), 2^n written into the exponent bits.
inline Vec ExpNonPositive(Vec v) {
  v = v < -87.0f ? Vec{} - 87.0f : v;
  const Vec t = v * 1.44269504088896341f + 0.5f;
  IntVec n = __builtin_convertvector(t, IntVec);  // toward zero; t < 0.5, so n <= floor(t) + 1
  const Vec nf = __builtin_convertvector(n, Vec);
  n = nf > t ? n - 1 : n;  // floor(t)
  const Vec fn = __builtin_convertvector(n, Vec);
  const Vec r = v - fn * 0.693359375f + fn * 2.12194440e-4f;
  Vec p = Vec{} + 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  const Vec e = p * (r * r) + r + 1.0f;
  const IntVec bits = (n + 127) << 23;
  Vec two_n;
  __builtin_memcpy(&two_n, &bits, sizeof two_n);
  return e * two_n;
}

inline Vec SeluVec(Vec x) {
  constexpr float scale = KernelTable::kSeluScale, scaled_alpha = scale * KernelTable::kSeluAlpha;
  const Vec negative = scaled_alpha * (ExpNonPositive(x > 0.0f ? Vec{} : x) - 1.0f);
  return x > 0.0f ? scale * x : negative;
}

inline Vec SeluSlope(Vec x, Vec y) {
  constexpr float scale = KernelTable::kSeluScale, scaled_alpha = scale * KernelTable::kSeluAlpha;
  return x > 0.0f ? Vec{} + scale : y + scaled_alpha;
}

// The tail of fewer than kLanes elements goes through one padded vector.
template <typename F>
void Tail(const float* x, std::int64_t count, float* y, F f) {
  float in[kLanes] = {}, out[kLanes];
  for (std::int64_t i = 0; i < count; ++i) in[i] = x[i];
  Store(out, f(Load(in)));
  for (std::int64_t i = 0; i < count; ++i) y[i] = out[i];
}

void Selu(const float* x, std::int64_t count, float* y) {
  std::int64_t i = 0;
  for (; i + kLanes <= count; i += kLanes) Store(y + i, SeluVec(Load(x + i)));
  Tail(x + i, count - i, y + i, SeluVec);
}

void SeluGradient(const float* x, const float* y, const float* g, std::int64_t count, float* gx, bool fresh) {
  std::int64_t i = 0;
  for (; i + kLanes <= count; i += kLanes) {
    const Vec d = Load(g + i) * SeluSlope(Load(x + i), Load(y + i));
    Store(gx + i, fresh ? d : Load(gx + i) + d);
  }
  for (; i < count; ++i) {
    const float d = g[i] * (x[i] > 0.0f ? KernelTable::kSeluScale
                                         : y[i] + KernelTable::kSeluScale * KernelTable::kSeluAlpha);
    gx[i] = fresh ? d : gx[i] + d;
  }
}

// ---- The peak: independent multiply-add chains ----

// Distinct starting values keep the compiler from merging the chains, and a
// start it cannot see (the caller reads it through a volatile) from
// computing them once for all calls.
constexpr int kChains = KernelTable::kFmaChains;
float FmaChains(float start, std::int64_t steps) {
  Vec acc[kChains];
  for (int j = 0; j < kChains; ++j) {
    for (int l = 0; l < kLanes; ++l) acc[j][l] = start + static_cast<float>(j) + 0.01f * static_cast<float>(l);
  }
  const Vec scale = Vec{} + 0.999f, shift = Vec{} + 0.001f;  // converges to 1, never overflows
  for (std::int64_t i = 0; i < steps; ++i) {
#pragma GCC unroll 12
    for (int j = 0; j < kChains; ++j) acc[j] = acc[j] * scale + shift;
  }
  float sum = 0;
  for (int j = 0; j < kChains; ++j) sum += acc[j][0];
  return sum;
}

// ---- Packed rows (engine/packed_rows.h) times floats, without AMX ----

// Pair row q, column c of Z is one 32-bit word: user 2q's bfloat16 in its
// low half, 2q + 1's in its high half. A bfloat16 is a float's upper 16
// bits, so the even user's value is the word shifted up and the odd user's
// the word with its low half cleared.
inline Vec AsFloats(const WordVec& w) {
  Vec v;
  __builtin_memcpy(&v, &w, sizeof v);
  return v;
}
inline Vec EvenUsers(const WordVec& w) { return AsFloats(w << 16); }
inline Vec OddUsers(const WordVec& w) { return AsFloats(w & 0xFFFF0000u); }
// x in every lane, by a shuffle (`Vec{} + x` would add, which can change
// the bits of a word read as a float; a loop of lane stores is not folded).
inline Vec Splat(float x) {
  Vec v = {x};
#if defined(__AVX512F__)
  return __builtin_shufflevector(v, v, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
#elif defined(__AVX__)
  return __builtin_shufflevector(v, v, 0, 0, 0, 0, 0, 0, 0, 0);
#else
  return __builtin_shufflevector(v, v, 0, 0, 0, 0);
#endif
}
inline WordVec LoadWords(const std::uint16_t* p) {
  WordVec w;
  __builtin_memcpy(&w, p, sizeof w);
  return w;
}

// 16 outputs a tile (out is a multiple of 16): the vectors of a tile, and
// how many pairs share each W row's load (their accumulators and the W
// vectors fill the register file).
constexpr int kPackedVectors = 16 / kLanes;
constexpr int kPackedPairs = kLanes == 16 ? 8 : kLanes == 8 ? 2 : 1;

// Y rows of pairs [q, q + kPackedPairs), outputs [o, o + 16): a sweep over
// every column, each step one W row and one word of each pair; added to Y's
// rows when `accumulate`.
void PackedProductTile(const std::uint16_t* z, std::ptrdiff_t cols, std::ptrdiff_t q, const float* w,
                       std::ptrdiff_t ldw, std::ptrdiff_t o, float* y, std::ptrdiff_t ldy, std::ptrdiff_t rows,
                       bool accumulate) {
  Vec acc[2 * kPackedPairs][kPackedVectors];
  for (int r = 0; r < 2 * kPackedPairs; ++r) {
    for (int v = 0; v < kPackedVectors; ++v) acc[r][v] = Vec{};
  }
  const std::uint16_t* pairs = z + q * cols * 2;
  for (std::ptrdiff_t c = 0; c < cols; ++c) {
    if (c % 16 == 0) {  // the next tile's rows, a line each: 1.5x on a Zen 3, whose prefetchers
                        // did not start each new pair of streams soon enough
      for (int p = 0; p < kPackedPairs; ++p) __builtin_prefetch(pairs + ((p + kPackedPairs) * cols + c) * 2);
    }
    Vec wv[kPackedVectors];
    for (int v = 0; v < kPackedVectors; ++v) wv[v] = Load(w + c * ldw + o + v * kLanes);
    for (int p = 0; p < kPackedPairs; ++p) {
      // The word broadcast as a float straight from memory (a load, where
      // an integer broadcast went through a general register first).
      float both;
      __builtin_memcpy(&both, pairs + (p * cols + c) * 2, sizeof both);
      const Vec spread = Splat(both);
      WordVec words;
      __builtin_memcpy(&words, &spread, sizeof words);
      const Vec even = EvenUsers(words), odd = OddUsers(words);
      for (int v = 0; v < kPackedVectors; ++v) {
        acc[2 * p][v] += even * wv[v];
        acc[2 * p + 1][v] += odd * wv[v];
      }
    }
  }
  for (int r = 0; r < 2 * kPackedPairs; ++r) {
    const std::ptrdiff_t row = 2 * q + r;
    if (row >= rows) break;
    float* out = y + row * ldy + o;
    for (int v = 0; v < kPackedVectors; ++v) {
      Store(out + v * kLanes, accumulate ? Load(out + v * kLanes) + acc[r][v] : acc[r][v]);
    }
  }
}

// A tile at a time, each sweeping its pairs' whole rows: two sequential
// streams the prefetchers follow. (Chunks of pairs by blocks of columns, to
// keep W's rows in L1, ran 1.1-1.4x slower on a Zen 3: the strided reads of
// Z cost more than W's 32 KB from L2.)
void PackedProduct(const std::uint16_t* z, std::ptrdiff_t cols, std::ptrdiff_t begin, std::ptrdiff_t end,
                   const float* w, std::ptrdiff_t ldw, std::ptrdiff_t out, float* y, std::ptrdiff_t ldy,
                   std::ptrdiff_t rows, bool accumulate) {
  for (std::ptrdiff_t q = begin; q < end && 2 * q < rows; q += kPackedPairs) {
    for (std::ptrdiff_t o = 0; o < out; o += 16) {
      PackedProductTile(z, cols, q, w, ldw, o, y, ldy, rows, accumulate);
    }
  }
}

// gt (out x cols) += G^T Z over pairs [begin, end): in chunks of pairs whose
// Z rows stay in L2 (64 KB) while every tile of gt passes over them. A tile
// is kGradientOutputs rows of gt by 16 columns; each step loads the tile's
// words of one pair (both users' values) and both users' gradient values.
constexpr std::ptrdiff_t kGradientChunk = 32;  // pairs
constexpr int kGradientOutputs = kLanes == 16 ? 8 : kLanes == 8 ? 4 : 2;

void PackedGradient(const std::uint16_t* z, std::ptrdiff_t cols, std::ptrdiff_t begin, std::ptrdiff_t end,
                    const float* g, std::ptrdiff_t ldg, std::ptrdiff_t out, std::ptrdiff_t rows, float* gt) {
  const std::ptrdiff_t whole = rows / 2;  // pairs with both users in G
  const bool odd_rows = rows % 2 != 0;    // then pair `whole` has its even user only
  for (std::ptrdiff_t first = begin; first < end; first += kGradientChunk) {
    const std::ptrdiff_t stop = first + kGradientChunk < end ? first + kGradientChunk : end;
    const std::ptrdiff_t full_end = stop < whole ? stop : whole;
    const bool half = odd_rows && whole >= first && whole < stop;
    if (full_end <= first && !half) break;
    for (std::ptrdiff_t o = 0; o < out; o += kGradientOutputs) {
      for (std::ptrdiff_t c = 0; c < cols; c += 16) {
        Vec acc[kGradientOutputs][kPackedVectors];
        for (int i = 0; i < kGradientOutputs; ++i) {
          for (int v = 0; v < kPackedVectors; ++v) acc[i][v] = Load(gt + (o + i) * cols + c + v * kLanes);
        }
        auto add_pair = [&](std::ptrdiff_t q, bool odd_user) {
          Vec even[kPackedVectors], odd[kPackedVectors];
          for (int v = 0; v < kPackedVectors; ++v) {
            const WordVec words = LoadWords(z + (q * cols + c + v * kLanes) * 2);
            even[v] = EvenUsers(words);
            odd[v] = OddUsers(words);
          }
          const float* g0 = g + 2 * q * ldg + o;
          for (int i = 0; i < kGradientOutputs; ++i) {
            const float a = g0[i];
            for (int v = 0; v < kPackedVectors; ++v) acc[i][v] += a * even[v];
          }
          if (!odd_user) return;
          const float* g1 = g0 + ldg;
          for (int i = 0; i < kGradientOutputs; ++i) {
            const float b = g1[i];
            for (int v = 0; v < kPackedVectors; ++v) acc[i][v] += b * odd[v];
          }
        };
        for (std::ptrdiff_t q = first; q < full_end; ++q) {
          // The first pass over a chunk also asks for the next chunk's
          // lines, each once (1.6x on a Zen 3 at 10^6 users).
          if (o == 0) __builtin_prefetch(z + ((q + kGradientChunk) * cols + c) * 2);
          add_pair(q, true);
        }
        if (half) add_pair(whole, false);
        for (int i = 0; i < kGradientOutputs; ++i) {
          for (int v = 0; v < kPackedVectors; ++v) Store(gt + (o + i) * cols + c + v * kLanes, acc[i][v]);
        }
      }
    }
  }
}

}  // namespace

extern const KernelTable kTable;
const KernelTable kTable = {LDPGRAPH_KERNEL_ISA, kLanes,        TallGemm,          NarrowGemm,   ColumnSums,   BroadcastRow,
                            SquaredDeviations,   ShiftedMoments, NormaliseRows,     GradientSums, InputGradientRows,
                            SparseRows,          SparseRowsBf16,     ScatterRows,  RoundToBf16,  Selu,
                            SeluGradient,        PackedProduct,      PackedGradient, FmaChains};

}  // namespace LDPGRAPH_KERNEL_NS
}  // namespace ldpgraph
