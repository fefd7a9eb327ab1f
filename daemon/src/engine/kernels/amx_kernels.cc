// TallGemm with bfloat16 inputs and float sums on Intel AMX tiles (Sapphire
// Rapids and later): one TDPBF16PS multiplies a 16 x 32 tile of A by a
// 32 x 16 tile of B into 16 x 16 floats, 16 times the multiply-adds of an
// AVX-512 FMA, so the Linear layers' products cost what converting their
// inputs costs. CMake compiles this file alone with -mamx-tile -mamx-bf16
// -mavx512bf16; like isa_kernels.cc it exports one table and includes nothing
// that defines an inline function another object could share (intrinsics
// are always inlined and never emitted), so kernel_symbols_check covers it.
// Bf16Kernels() (kernel_dispatch.cc) hands the table out only once the CPU
// has AMX and Linux has granted the process the tile state.
#include <immintrin.h>

#include <cstdint>
#include <cstdlib>

#include "engine/kernels/kernel_table.h"

namespace ldpgraph {
namespace amx_bf16 {
namespace {

constexpr int kTileRows = 16;     // rows of every tile
constexpr int kPairsPerRow = 32;  // bfloat16 values in a row of A's tile (64 bytes)
constexpr int kPanel = 16;        // floats in a row of C's tile, and columns of B's
constexpr int kPackedTile = kTileRows * kPairsPerRow;  // bfloat16 values in one packed tile of B
constexpr std::ptrdiff_t kMaxInner = Bf16KernelTable::kMaxInner;

// Tiles: C in tmm0-3 (up to 4 panels of 16 columns per pass), A in tmm4, B
// in tmm5-7 (loads of the next panel overlap the product of the last).
struct TileConfig {
  std::uint8_t palette;
  std::uint8_t start_row;
  std::uint8_t reserved[14];
  std::uint16_t bytes_per_row[16];
  std::uint8_t rows[16];
};

void ConfigureTiles() {
  alignas(64) TileConfig config = {};
  config.palette = 1;
  for (int t = 0; t < 8; ++t) {
    config.bytes_per_row[t] = 64;
    config.rows[t] = kTileRows;
  }
  _tile_loadconfig(&config);
}

// 32 floats at p and p + 16 rounded to nearest-even bfloat16, in order.
inline __m512i RoundPairs(const float* p) {
  return reinterpret_cast<__m512i>(_mm512_cvtne2ps_pbh(_mm512_loadu_ps(p + 16), _mm512_loadu_ps(p)));
}

// The 16-bit lane order that interleaves the two halves of 32 bfloat16
// values: lane 2j takes element j of the low half, lane 2j + 1 element j of
// the high half (two rows' values for one column side by side).
__m512i PairInterleave() {
  alignas(64) std::uint16_t order[32];
  for (int j = 0; j < 16; ++j) {
    order[2 * j] = static_cast<std::uint16_t>(j);
    order[2 * j + 1] = static_cast<std::uint16_t>(16 + j);
  }
  return _mm512_load_si512(order);
}

// B (inner x cols, row stride ldb) into AMX's pair-interleaved layout: tile
// (chunk, panel) holds rows 2i, 2i + 1 of the chunk's 32 as row i, their
// values for column j side by side at 2j, 2j + 1.
void PackB(const float* b, std::ptrdiff_t ldb, std::ptrdiff_t inner, std::ptrdiff_t cols, std::uint16_t* out) {
  const __m512i interleave = PairInterleave();
  const std::ptrdiff_t panels = cols / kPanel;
  for (std::ptrdiff_t chunk = 0; chunk < inner / kPairsPerRow; ++chunk) {
    for (std::ptrdiff_t panel = 0; panel < panels; ++panel) {
      std::uint16_t* tile = out + (chunk * panels + panel) * kPackedTile;
      for (int i = 0; i < kTileRows; ++i) {
        const float* even = b + (chunk * kPairsPerRow + 2 * i) * ldb + panel * kPanel;
        const __m512bh both = _mm512_cvtne2ps_pbh(_mm512_loadu_ps(even + ldb), _mm512_loadu_ps(even));
        _mm512_storeu_si512(tile + i * kPairsPerRow,
                            _mm512_permutexvar_epi16(interleave, reinterpret_cast<__m512i>(both)));
      }
    }
  }
}

// C[16 rows, P panels from `panel`] (+)= A (16 x inner, bfloat16, row
// stride a_bytes) times packed B, C addressed with row stride c_bytes.
// `start`: the tiles begin as C (accumulate), as `bias` (every row; a load
// with stride 0), or as zero.
enum class Start { kZero, kC, kBias };

template <int P>
void Panels(const std::uint16_t* a, std::ptrdiff_t a_bytes, std::ptrdiff_t chunks, const std::uint16_t* b,
            std::ptrdiff_t panels, std::ptrdiff_t panel, float* c, std::ptrdiff_t c_bytes, const float* bias,
            Start start) {
  static_assert(P >= 1 && P <= 4, "four C tiles at most");
  const float* bias0 = bias == nullptr ? nullptr : bias + panel * kPanel;
  switch (start) {
    case Start::kC:
      _tile_loadd(0, c, c_bytes);
      if constexpr (P > 1) _tile_loadd(1, c + kPanel, c_bytes);
      if constexpr (P > 2) _tile_loadd(2, c + 2 * kPanel, c_bytes);
      if constexpr (P > 3) _tile_loadd(3, c + 3 * kPanel, c_bytes);
      break;
    case Start::kBias:
      _tile_loadd(0, bias0, 0);
      if constexpr (P > 1) _tile_loadd(1, bias0 + kPanel, 0);
      if constexpr (P > 2) _tile_loadd(2, bias0 + 2 * kPanel, 0);
      if constexpr (P > 3) _tile_loadd(3, bias0 + 3 * kPanel, 0);
      break;
    case Start::kZero:
      _tile_zero(0);
      if constexpr (P > 1) _tile_zero(1);
      if constexpr (P > 2) _tile_zero(2);
      if constexpr (P > 3) _tile_zero(3);
      break;
  }
  for (std::ptrdiff_t chunk = 0; chunk < chunks; ++chunk) {
    const std::uint16_t* bt = b + (chunk * panels + panel) * kPackedTile;
    _tile_loadd(4, a + chunk * kPairsPerRow, a_bytes);
    _tile_loadd(5, bt, 64);
    _tile_dpbf16ps(0, 4, 5);
    if constexpr (P > 1) {
      _tile_loadd(6, bt + kPackedTile, 64);
      _tile_dpbf16ps(1, 4, 6);
    }
    if constexpr (P > 2) {
      _tile_loadd(7, bt + 2 * kPackedTile, 64);
      _tile_dpbf16ps(2, 4, 7);
    }
    if constexpr (P > 3) {
      _tile_loadd(5, bt + 3 * kPackedTile, 64);
      _tile_dpbf16ps(3, 4, 5);
    }
  }
  _tile_stored(0, c, c_bytes);
  if constexpr (P > 1) _tile_stored(1, c + kPanel, c_bytes);
  if constexpr (P > 2) _tile_stored(2, c + 2 * kPanel, c_bytes);
  if constexpr (P > 3) _tile_stored(3, c + 3 * kPanel, c_bytes);
}

// Every panel of one block of 16 rows of C.
// A's rows hold `lda` bfloat16 values, of which the first chunks x 32 are summed.
void RowBlock(const std::uint16_t* a, std::ptrdiff_t lda, std::ptrdiff_t chunks, const std::uint16_t* b,
              std::ptrdiff_t panels, float* c, std::ptrdiff_t ldc, const float* bias, Start start) {
  const std::ptrdiff_t a_bytes = lda * 2, c_bytes = ldc * 4;
  std::ptrdiff_t panel = 0;
  for (; panel + 4 <= panels; panel += 4) {
    Panels<4>(a, a_bytes, chunks, b, panels, panel, c + panel * kPanel, c_bytes, bias, start);
  }
  float* rest = c + panel * kPanel;
  switch (panels - panel) {
    case 3: Panels<3>(a, a_bytes, chunks, b, panels, panel, rest, c_bytes, bias, start); break;
    case 2: Panels<2>(a, a_bytes, chunks, b, panels, panel, rest, c_bytes, bias, start); break;
    case 1: Panels<1>(a, a_bytes, chunks, b, panels, panel, rest, c_bytes, bias, start); break;
    default: break;
  }
}

void TallGemm(const GemmOperands& m, std::ptrdiff_t rows, std::ptrdiff_t cols, std::ptrdiff_t inner,
              bool accumulate) {
  const std::ptrdiff_t panels = cols / kPanel;
  auto* b = static_cast<std::uint16_t*>(std::aligned_alloc(64, static_cast<std::size_t>(inner * cols) * 2));
  if (b == nullptr) std::abort();
  PackB(m.b, m.ldb, inner, cols, b);
  alignas(64) std::uint16_t a[kTileRows * kMaxInner];
  // The last block's rows beyond C's go through this scratch C.
  alignas(64) float scratch[kTileRows * Bf16KernelTable::kMaxCols];
  // Bias and accumulation together (never both in the engine): the bias is
  // added after, in a pass over the rows.
  const bool bias_after = accumulate && m.bias != nullptr;
  const Start start = accumulate ? Start::kC : m.bias != nullptr ? Start::kBias : Start::kZero;
  ConfigureTiles();
  for (std::ptrdiff_t row = 0; row < rows; row += kTileRows) {
    const std::ptrdiff_t count = rows - row < kTileRows ? rows - row : kTileRows;
    for (std::ptrdiff_t r = 0; r < kTileRows; ++r) {
      std::uint16_t* to = a + r * inner;
      if (r < count) {
        const float* from = m.a + (row + r) * m.a_row_stride;
        for (std::ptrdiff_t p = 0; p < inner; p += kPairsPerRow) _mm512_storeu_si512(to + p, RoundPairs(from + p));
      } else {
        for (std::ptrdiff_t p = 0; p < inner; p += kPairsPerRow) _mm512_storeu_si512(to + p, _mm512_setzero_si512());
      }
    }
    float* c = m.c + row * m.ldc;
    if (count == kTileRows) {
      RowBlock(a, inner, inner / kPairsPerRow, b, panels, c, m.ldc, m.bias, start);
    } else {
      for (std::ptrdiff_t r = 0; r < kTileRows; ++r) {
        for (std::ptrdiff_t j = 0; j < cols; ++j) {
          scratch[r * cols + j] = accumulate && r < count ? c[r * m.ldc + j] : 0;
        }
      }
      RowBlock(a, inner, inner / kPairsPerRow, b, panels, scratch, cols, m.bias, start);
      for (std::ptrdiff_t r = 0; r < count; ++r) {
        for (std::ptrdiff_t j = 0; j < cols; ++j) c[r * m.ldc + j] = scratch[r * cols + j];
      }
    }
    if (bias_after) {
      for (std::ptrdiff_t r = 0; r < count; ++r) {
        for (std::ptrdiff_t j = 0; j < cols; ++j) c[r * m.ldc + j] += m.bias[j];
      }
    }
  }
  _tile_release();
  std::free(b);
}

// The weight gradient C (k x m) (+)= X^T G over `inner` rows of X (row
// stride k) and G (row stride m): AMX wants A's rows contiguous along the
// summed dimension, so X's rows are rounded in pairs, interleaved (feature
// f's two values side by side) and transposed, 32 rows at a time.
constexpr std::ptrdiff_t kRowsPerChunk = 256;  // rows of X and G converted per round

// One round of a 16 x 16 dword transpose: the off-diagonal B x B blocks of
// every 2B x 2B block swap places (rounds B = 8, 4, 2, 1 transpose it).
template <int B>
inline void SwapBlocks(__m512i (&r)[16]) {
  alignas(64) static constexpr std::uint32_t kLow[16] = {
      (0 & B) ? 16 + 0 - B : 0,     (1 & B) ? 16 + 1 - B : 1,     (2 & B) ? 16 + 2 - B : 2,
      (3 & B) ? 16 + 3 - B : 3,     (4 & B) ? 16 + 4 - B : 4,     (5 & B) ? 16 + 5 - B : 5,
      (6 & B) ? 16 + 6 - B : 6,     (7 & B) ? 16 + 7 - B : 7,     (8 & B) ? 16 + 8 - B : 8,
      (9 & B) ? 16 + 9 - B : 9,     (10 & B) ? 16 + 10 - B : 10,  (11 & B) ? 16 + 11 - B : 11,
      (12 & B) ? 16 + 12 - B : 12,  (13 & B) ? 16 + 13 - B : 13,  (14 & B) ? 16 + 14 - B : 14,
      (15 & B) ? 16 + 15 - B : 15};
  alignas(64) static constexpr std::uint32_t kHigh[16] = {
      (0 & B) ? 16 : 0 + B,   (1 & B) ? 17 : 1 + B,   (2 & B) ? 18 : 2 + B,   (3 & B) ? 19 : 3 + B,
      (4 & B) ? 20 : 4 + B,   (5 & B) ? 21 : 5 + B,   (6 & B) ? 22 : 6 + B,   (7 & B) ? 23 : 7 + B,
      (8 & B) ? 24 : 8 + B,   (9 & B) ? 25 : 9 + B,   (10 & B) ? 26 : 10 + B, (11 & B) ? 27 : 11 + B,
      (12 & B) ? 28 : 12 + B, (13 & B) ? 29 : 13 + B, (14 & B) ? 30 : 14 + B, (15 & B) ? 31 : 15 + B};
  const __m512i low = _mm512_load_si512(kLow), high = _mm512_load_si512(kHigh);
#pragma GCC unroll 16
  for (int i = 0; i < 16; ++i) {
    if ((i & B) != 0) continue;
    const __m512i top = r[i], bottom = r[i + B];
    r[i] = _mm512_permutex2var_epi32(top, low, bottom);
    r[i + B] = _mm512_permutex2var_epi32(top, high, bottom);
  }
}

// X's next kRowsPerChunk rows (`rows` of them real, the rest zero) as k rows
// of bfloat16 (row f: x[0][f], x[1][f], ...): each pair of rows rounded and
// interleaved into 16 dwords (one per feature), 16 pairs at a time
// transposed in registers.
void TransposeRows(const float* x, std::ptrdiff_t ldx, std::ptrdiff_t rows, std::ptrdiff_t k,
                   std::uint16_t* out) {
  const __m512i interleave = PairInterleave();
  auto* out32 = reinterpret_cast<std::uint32_t*>(out);
  constexpr std::ptrdiff_t kPairs = kRowsPerChunk / 2;  // dwords in a row of out
  for (std::ptrdiff_t q0 = 0; q0 < kPairs; q0 += 16) {
    for (std::ptrdiff_t f0 = 0; f0 < k; f0 += 16) {
      __m512i r[16];
#pragma GCC unroll 16
      for (int q = 0; q < 16; ++q) {
        const std::ptrdiff_t row = 2 * (q0 + q);
        const __m512 even = row < rows ? _mm512_loadu_ps(x + row * ldx + f0) : _mm512_setzero_ps();
        const __m512 odd = row + 1 < rows ? _mm512_loadu_ps(x + (row + 1) * ldx + f0) : _mm512_setzero_ps();
        r[q] = _mm512_permutexvar_epi16(interleave, reinterpret_cast<__m512i>(_mm512_cvtne2ps_pbh(odd, even)));
      }
      SwapBlocks<8>(r);
      SwapBlocks<4>(r);
      SwapBlocks<2>(r);
      SwapBlocks<1>(r);
#pragma GCC unroll 16
      for (int f = 0; f < 16; ++f) _mm512_store_si512(out32 + (f0 + f) * kPairs + q0, r[f]);
    }
  }
}

void WeightGradient(const GemmOperands& m, std::ptrdiff_t k, std::ptrdiff_t cols, std::ptrdiff_t inner,
                    bool accumulate) {
  const std::ptrdiff_t panels = cols / kPanel;
  auto* xt = static_cast<std::uint16_t*>(std::aligned_alloc(64, static_cast<std::size_t>(k * kRowsPerChunk) * 2));
  auto* g = static_cast<std::uint16_t*>(std::aligned_alloc(64, static_cast<std::size_t>(kRowsPerChunk * cols) * 2));
  if (xt == nullptr || g == nullptr) std::abort();
  alignas(64) float tail[kPairsPerRow * Bf16KernelTable::kMaxCols];
  ConfigureTiles();
  for (std::ptrdiff_t p0 = 0; p0 < inner; p0 += kRowsPerChunk) {
    const std::ptrdiff_t rows = inner - p0 < kRowsPerChunk ? inner - p0 : kRowsPerChunk;
    TransposeRows(m.a + p0 * m.a_inner_stride, m.a_inner_stride, rows, k, xt);
    // G's rows, padded with zero rows to whole chunks of 32.
    const std::ptrdiff_t whole = rows / kPairsPerRow * kPairsPerRow;
    if (whole > 0) PackB(m.b + p0 * m.ldb, m.ldb, whole, cols, g);
    if (whole < rows) {
      for (std::ptrdiff_t r = 0; r < kPairsPerRow; ++r) {
        const bool real = whole + r < rows;
        const float* from = real ? m.b + (p0 + whole + r) * m.ldb : nullptr;
        for (std::ptrdiff_t j = 0; j < cols; ++j) tail[r * cols + j] = real ? from[j] : 0;
      }
      PackB(tail, cols, kPairsPerRow, cols, g + whole * cols);
    }
    const std::ptrdiff_t chunks = (rows + kPairsPerRow - 1) / kPairsPerRow;
    const Start start = accumulate || p0 > 0 ? Start::kC : Start::kZero;
    for (std::ptrdiff_t row = 0; row < k; row += kTileRows) {
      RowBlock(xt + row * kRowsPerChunk, kRowsPerChunk, chunks, g, panels, m.c + row * m.ldc, m.ldc, nullptr, start);
    }
  }
  _tile_release();
  if (m.bias != nullptr) {  // never in the engine (a weight gradient has no bias)
    for (std::ptrdiff_t r = 0; r < k; ++r) {
      for (std::ptrdiff_t j = 0; j < cols; ++j) m.c[r * m.ldc + j] += m.bias[j];
    }
  }
  std::free(xt);
  std::free(g);
}

// `steps` rounds of four independent tile products (16 x 16 x 32 each): the
// core's bfloat16 peak, for benchmarks. Returns a C element so the work is
// kept.
float TileChains(std::int64_t steps) {
  alignas(64) std::uint16_t a[kPackedTile] = {};
  alignas(64) float c[kTileRows * kPanel];
  ConfigureTiles();
  _tile_loadd(4, a, 64);
  _tile_loadd(5, a, 64);
  _tile_zero(0);
  _tile_zero(1);
  _tile_zero(2);
  _tile_zero(3);
  for (std::int64_t i = 0; i < steps; ++i) {
    _tile_dpbf16ps(0, 4, 5);
    _tile_dpbf16ps(1, 4, 5);
    _tile_dpbf16ps(2, 4, 5);
    _tile_dpbf16ps(3, 4, 5);
  }
  _tile_stored(0, c, 64);
  _tile_release();
  return c[0];
}

}  // namespace

extern const Bf16KernelTable kTable;
const Bf16KernelTable kTable = {TallGemm, WeightGradient, TileChains};

}  // namespace amx_bf16
}  // namespace ldpgraph
