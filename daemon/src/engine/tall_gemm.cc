#include "engine/tall_gemm.h"

#include <Eigen/Core>
#include <algorithm>
#include <cstring>

#include "engine/float_vector.h"

namespace ldpgraph {
namespace {

// The register tile: kMaxRows x kMaxVectors vectors of accumulators, plus
// the B vectors of one inner step and a broadcast, fit the register file
// (32 zmm with AVX-512: 24 + 4 + 1; 16 ymm with AVX: 12 + 2 + 1).
constexpr int kLanes = kFloatLanes;
constexpr int kMaxVectors = kLanes == 16 ? 4 : 2;
constexpr int kMaxRows = 6;
// The inner dimension is streamed in blocks whose A and B rows stay in L2
// while every tile of C passes over them (the weight gradient's inner
// dimension is the batch's node count).
constexpr std::ptrdiff_t kInnerBlock = 256;

using Vec = FloatVector;

inline Vec Load(const float* p) {
  Vec v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

inline void Store(float* p, const Vec& v) { std::memcpy(p, &v, sizeof v); }

// C[row .. row+R, col .. col+V*kLanes] (+)= A B over inner [p0, p1).
template <int R, int V>
void Tile(const GemmOperands& m, std::ptrdiff_t row, std::ptrdiff_t col, std::ptrdiff_t p0, std::ptrdiff_t p1,
          bool accumulate) {
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
  for (int r = 0; r < R; ++r) {
    for (int v = 0; v < V; ++v) Store(c + r * m.ldc + v * kLanes, acc[r][v]);
  }
}

template <int V>
void TileRows(const GemmOperands& m, std::ptrdiff_t rows, std::ptrdiff_t col, std::ptrdiff_t p0, std::ptrdiff_t p1,
              bool accumulate) {
  std::ptrdiff_t row = 0;
  for (; row + kMaxRows <= rows; row += kMaxRows) Tile<kMaxRows, V>(m, row, col, p0, p1, accumulate);
  switch (rows - row) {
    case 5: Tile<5, V>(m, row, col, p0, p1, accumulate); break;
    case 4: Tile<4, V>(m, row, col, p0, p1, accumulate); break;
    case 3: Tile<3, V>(m, row, col, p0, p1, accumulate); break;
    case 2: Tile<2, V>(m, row, col, p0, p1, accumulate); break;
    case 1: Tile<1, V>(m, row, col, p0, p1, accumulate); break;
    default: break;
  }
}

void TileColumns(const GemmOperands& m, std::ptrdiff_t rows, std::ptrdiff_t cols, std::ptrdiff_t p0,
                 std::ptrdiff_t p1, bool accumulate) {
  std::ptrdiff_t col = 0;
  for (; col + kMaxVectors * kLanes <= cols; col += kMaxVectors * kLanes) {
    TileRows<kMaxVectors>(m, rows, col, p0, p1, accumulate);
  }
  switch ((cols - col) / kLanes) {
    case 3: TileRows<3>(m, rows, col, p0, p1, accumulate); break;
    case 2: TileRows<2>(m, rows, col, p0, p1, accumulate); break;
    case 1: TileRows<1>(m, rows, col, p0, p1, accumulate); break;
    default: break;
  }
}

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
}

void TallGemm(const GemmOperands& m, std::ptrdiff_t rows, std::ptrdiff_t cols, std::ptrdiff_t inner,
              bool accumulate) {
  if (rows <= 0 || cols <= 0) return;
  if (cols % kLanes != 0) return ReferenceGemm(m, rows, cols, inner, accumulate);
  if (inner <= 0) {
    if (!accumulate) {
      for (std::ptrdiff_t r = 0; r < rows; ++r) std::fill_n(m.c + r * m.ldc, cols, 0.0f);
    }
    return;
  }
  for (std::ptrdiff_t p0 = 0; p0 < inner; p0 += kInnerBlock) {
    TileColumns(m, rows, cols, p0, std::min(inner, p0 + kInnerBlock), accumulate || p0 > 0);
  }
}

}  // namespace ldpgraph
