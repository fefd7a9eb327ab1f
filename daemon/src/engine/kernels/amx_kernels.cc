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

// Packed rows (engine/packed_rows.h): users in pairs, pair q holding user
// 2q's and 2q + 1's value of each column side by side (one dword a column),
// `cols` columns (a multiple of 16), pair rows in whole blocks of 16.
constexpr std::ptrdiff_t kPairBlock = 16;  // pair rows a tile reads: 32 users

// W (cols x out, row stride ldw) for PackedProduct: per chunk of 16 columns
// of Z and panel of 16 outputs, two tiles. A tile of packed Z has pair q as
// its row and (column c, user parity) as its 32 entries, so tile E holds
// (W[c][j], 0) at row c, dword j, and tile O (0, W[c][j]): E sums the even
// users' outputs, O the odd ones'.
void PackProductWeights(const float* w, std::ptrdiff_t ldw, std::ptrdiff_t cols, std::ptrdiff_t out,
                        std::uint16_t* packed) {
  const std::ptrdiff_t panels = out / kPanel;
  for (std::ptrdiff_t chunk = 0; chunk < cols / kTileRows; ++chunk) {
    for (std::ptrdiff_t panel = 0; panel < panels; ++panel) {
      std::uint16_t* even = packed + (chunk * panels + panel) * 2 * kPackedTile;
      std::uint16_t* odd = even + kPackedTile;
      for (int c = 0; c < kTileRows; ++c) {
        const float* row = w + (chunk * kTileRows + c) * ldw + panel * kPanel;
        // Rounded to nearest-even bfloat16, 16 values into the low half.
        const __m256i rounded = reinterpret_cast<__m256i>(_mm512_cvtneps_pbh(_mm512_loadu_ps(row)));
        // (w, 0) in each dword. The masked forms: GCC 12 warns of the plain ones'
        // undefined start value.
        const __m512i words = _mm512_maskz_cvtepu16_epi32(0xFFFF, rounded);
        _mm512_storeu_si512(even + c * kPairsPerRow, words);
        _mm512_storeu_si512(odd + c * kPairsPerRow, _mm512_maskz_slli_epi32(0xFFFF, words, 16));  // (0, w)
      }
    }
  }
}

// Y (+)= Z W for pair rows [begin, end) of packed Z (whole blocks of 16),
// Y's rows beyond `rows` left alone: two C tiles per panel of 16 outputs
// (even and odd users), two panels a pass.
void PackedProduct(const std::uint16_t* z, std::ptrdiff_t cols, std::ptrdiff_t begin, std::ptrdiff_t end,
                   const float* w, std::ptrdiff_t ldw, std::ptrdiff_t out, float* y, std::ptrdiff_t ldy,
                   std::ptrdiff_t rows, bool accumulate) {
  const std::ptrdiff_t panels = out / kPanel, chunks = cols / kTileRows;
  const std::size_t packed_values = static_cast<std::size_t>(chunks * panels * 2 * kPackedTile);
  auto* b = static_cast<std::uint16_t*>(std::aligned_alloc(64, packed_values * 2));
  if (b == nullptr) std::abort();
  PackProductWeights(w, ldw, cols, out, b);
  const std::ptrdiff_t z_bytes = cols * 4;  // a pair row: two bfloat16 a column
  // A block whose users run past Y's rows goes through this scratch.
  alignas(64) float scratch[2 * kPairBlock * 64];
  ConfigureTiles();
  for (std::ptrdiff_t q = begin; q < end; q += kPairBlock) {
    const bool whole = 2 * (q + kPairBlock) <= rows;
    for (std::ptrdiff_t panel = 0; panel < panels; panel += 2) {
      const bool two = panel + 1 < panels;
      float* c = whole ? y + 2 * q * ldy + panel * kPanel : scratch;
      const std::ptrdiff_t ldc = whole ? ldy : 2 * kPanel;
      if (!whole) {
        for (std::ptrdiff_t r = 0; r < 2 * kPairBlock; ++r) {
          for (std::ptrdiff_t j = 0; j < (two ? 2 : 1) * kPanel; ++j) {
            scratch[r * ldc + j] = accumulate && 2 * q + r < rows ? y[(2 * q + r) * ldy + panel * kPanel + j] : 0;
          }
        }
      }
      // Tile rows are pairs: user 2q's outputs at c, 2q + 1's a row below.
      const std::ptrdiff_t c_bytes = 2 * ldc * 4;
      if (accumulate || !whole) {
        _tile_loadd(0, c, c_bytes);
        _tile_loadd(1, c + ldc, c_bytes);
        if (two) {
          _tile_loadd(2, c + kPanel, c_bytes);
          _tile_loadd(3, c + ldc + kPanel, c_bytes);
        }
      } else {
        _tile_zero(0);
        _tile_zero(1);
        _tile_zero(2);
        _tile_zero(3);
      }
      const std::uint16_t* a = z + q * cols * 2;
      for (std::ptrdiff_t chunk = 0; chunk < chunks; ++chunk) {
        const std::uint16_t* bt = b + (chunk * panels + panel) * 2 * kPackedTile;
        _tile_loadd(4, a + chunk * kPairsPerRow, z_bytes);
        _tile_loadd(5, bt, 64);
        _tile_loadd(6, bt + kPackedTile, 64);
        _tile_dpbf16ps(0, 4, 5);
        _tile_dpbf16ps(1, 4, 6);
        if (two) {
          _tile_loadd(7, bt + 2 * kPackedTile, 64);
          _tile_loadd(5, bt + 3 * kPackedTile, 64);
          _tile_dpbf16ps(2, 4, 7);
          _tile_dpbf16ps(3, 4, 5);
        }
      }
      _tile_stored(0, c, c_bytes);
      _tile_stored(1, c + ldc, c_bytes);
      if (two) {
        _tile_stored(2, c + kPanel, c_bytes);
        _tile_stored(3, c + ldc + kPanel, c_bytes);
      }
      if (!whole) {
        for (std::ptrdiff_t r = 0; r < 2 * kPairBlock && 2 * q + r < rows; ++r) {
          for (std::ptrdiff_t j = 0; j < (two ? 2 : 1) * kPanel; ++j) {
            y[(2 * q + r) * ldy + panel * kPanel + j] = scratch[r * ldc + j];
          }
        }
      }
    }
  }
  _tile_release();
  std::free(b);
}

// G^T Z for pair rows [begin, end) of packed Z (whole blocks of 16) and the
// matching rows of G (rows x out, row stride ldg; those past `rows` count
// as zero), added to gt (out x cols, row stride cols): Z's pairs are AMX's
// B layout as they stand, and G's rows are rounded, interleaved and
// transposed 256 at a time into A.
void PackedGradient(const std::uint16_t* z, std::ptrdiff_t cols, std::ptrdiff_t begin, std::ptrdiff_t end,
                    const float* g, std::ptrdiff_t ldg, std::ptrdiff_t out, std::ptrdiff_t rows, float* gt) {
  auto* a = static_cast<std::uint16_t*>(std::aligned_alloc(64, static_cast<std::size_t>(out * kRowsPerChunk) * 2));
  if (a == nullptr) std::abort();
  const std::ptrdiff_t z_bytes = cols * 4, gt_bytes = cols * 4, a_bytes = kRowsPerChunk * 2;
  ConfigureTiles();
  for (std::ptrdiff_t q0 = begin; q0 < end; q0 += kRowsPerChunk / 2) {
    const std::ptrdiff_t pairs = end - q0 < kRowsPerChunk / 2 ? end - q0 : kRowsPerChunk / 2;
    const std::ptrdiff_t first = 2 * q0, real = rows - first < 2 * pairs ? rows - first : 2 * pairs;
    TransposeRows(g + first * ldg, ldg, real > 0 ? real : 0, out, a);
    for (std::ptrdiff_t m = 0; m < out; m += kTileRows) {
      for (std::ptrdiff_t band = 0; band < cols; band += 4 * kPanel) {
        const int tiles = static_cast<int>((cols - band) / kPanel < 4 ? (cols - band) / kPanel : 4);
        float* c = gt + m * cols + band;
        _tile_loadd(0, c, gt_bytes);
        if (tiles > 1) _tile_loadd(1, c + kPanel, gt_bytes);
        if (tiles > 2) _tile_loadd(2, c + 2 * kPanel, gt_bytes);
        if (tiles > 3) _tile_loadd(3, c + 3 * kPanel, gt_bytes);
        for (std::ptrdiff_t s = 0; s < pairs; s += kPairBlock) {
          const std::uint16_t* bz = z + (q0 + s) * cols * 2 + band * 2;
          _tile_loadd(4, a + m * kRowsPerChunk + 2 * s, a_bytes);
          _tile_loadd(5, bz, z_bytes);
          _tile_dpbf16ps(0, 4, 5);
          if (tiles > 1) {
            _tile_loadd(6, bz + kPairsPerRow, z_bytes);
            _tile_dpbf16ps(1, 4, 6);
          }
          if (tiles > 2) {
            _tile_loadd(7, bz + 2 * kPairsPerRow, z_bytes);
            _tile_dpbf16ps(2, 4, 7);
          }
          if (tiles > 3) {
            _tile_loadd(5, bz + 3 * kPairsPerRow, z_bytes);
            _tile_dpbf16ps(3, 4, 5);
          }
        }
        _tile_stored(0, c, gt_bytes);
        if (tiles > 1) _tile_stored(1, c + kPanel, gt_bytes);
        if (tiles > 2) _tile_stored(2, c + 2 * kPanel, gt_bytes);
        if (tiles > 3) _tile_stored(3, c + 3 * kPanel, gt_bytes);
      }
    }
  }
  _tile_release();
  std::free(a);
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
const Bf16KernelTable kTable = {TallGemm, WeightGradient, PackedProduct, PackedGradient, TileChains};

}  // namespace amx_bf16
}  // namespace ldpgraph
