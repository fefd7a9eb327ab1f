// TallGemm with bfloat16 inputs (GemmOperands::bf16) against a reference
// that rounds A and B to bfloat16 itself and sums in double: on a CPU with
// AMX, every tile shape (rows not a multiple of 16, panels beyond a pass of
// four, inner across chunks), overwrite, accumulate and bias, A read as X
// and as X^T (the weight gradient); everywhere, shapes the tiles do not take
// fall back to the float products bit for bit.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>

#include "engine/kernels/kernel_table.h"
#include "engine/matrix.h"
#include "engine/tall_gemm.h"
#include "ldpgraph/samplers.h"
#include "support/bf16_rounding.h"
#include "support/random_matrix.h"

using namespace ldpgraph;
using ldpgraph::testing::MaxError;
using ldpgraph::testing::RoundToBf16;
using ldpgraph::testing::Rounded;
using ldpgraph::testing::RandomMatrix;

namespace {

Matrix Product(const Matrix& a, const Matrix& b) {
  return (a.cast<double>() * b.cast<double>()).cast<float>();
}

}  // namespace

TEST_CASE("Bf16Gemm.MatchesRoundedInputsSummedExactly") {
  if (Bf16Kernels() == nullptr) {
    MESSAGE("skipped: this CPU (or kernel, or LDPGRAPH_ISA) offers no AMX bfloat16 tiles");
    return;
  }
  SeededRandomSource rng(23);
  for (Eigen::Index rows : {1, 15, 16, 17, 64, 100}) {
    for (Eigen::Index cols : {16, 48, 64, 80, 256}) {
      for (Eigen::Index inner : {32, 64, 256, 1, 31, 300, 600}) {
        for (int mode = 0; mode < 8; ++mode) {  // overwrite, accumulate, bias, both; A as X or X^T
          const bool accumulate = mode & 1, biased = mode & 2, transposed_a = mode & 4;
          // X^T's tiles take rows in 16s, X's inner in 32s up to 256.
          if (transposed_a ? rows % 16 != 0 : inner % 32 != 0 || inner > 256) continue;
          CAPTURE(rows);
          CAPTURE(cols);
          CAPTURE(inner);
          CAPTURE(mode);
          const Matrix x = transposed_a ? RandomMatrix(inner, rows, rng) : RandomMatrix(rows, inner, rng);
          const Matrix a = transposed_a ? Matrix(x.transpose()) : x;
          const Matrix b = RandomMatrix(inner, cols, rng);
          const Matrix bias = RandomMatrix(1, cols, rng), start = RandomMatrix(rows, cols, rng);
          Matrix c = start;
          GemmOperands m{x.data(), transposed_a ? 1 : inner, transposed_a ? rows : 1, b.data(), cols, c.data(), cols,
                         biased ? bias.data() : nullptr};
          m.bf16 = true;
          TallGemm(m, rows, cols, inner, accumulate);
          Matrix want = Product(Rounded(a), Rounded(b));
          if (accumulate) want += start;
          if (biased) want.rowwise() += bias.row(0);
          const float tolerance = 2e-6f * static_cast<float>(inner + 1);
          CHECK(MaxError(c, want) < tolerance);
          // The rounding really happened: the exact float product is farther.
          Matrix exact = Product(a, b);
          if (accumulate) exact += start;
          if (biased) exact.rowwise() += bias.row(0);
          if (inner >= 32) CHECK(MaxError(c, exact) > tolerance);
        }
      }
    }
  }
}

TEST_CASE("Bf16Gemm.WritesOnlyItsBlockOfALargerMatrix") {
  SeededRandomSource rng(29);
  const Matrix a = RandomMatrix(21, 64, rng), b = RandomMatrix(64, 32, rng);
  Matrix big = RandomMatrix(25, 80, rng);
  const Matrix before = big;
  GemmOperands m{a.data(), 64, 1, b.data(), 32, big.data() + 2 * 80 + 16, 80};
  m.bf16 = true;
  TallGemm(m, 21, 32, 64, false);
  const Matrix want = Bf16Kernels() != nullptr ? Product(Rounded(a), Rounded(b)) : Product(a, b);
  CHECK(MaxError(big.block(2, 16, 21, 32), want) < 1e-4f);
  CHECK(big.topRows(2) == before.topRows(2));
  CHECK(big.bottomRows(2) == before.bottomRows(2));
  CHECK(big.block(2, 0, 21, 16) == before.block(2, 0, 21, 16));
  CHECK(big.block(2, 48, 21, 32) == before.block(2, 48, 21, 32));
}

// Inner not a multiple of 32 or beyond the tiles' buffer, columns not whole
// panels, X^T with rows not in 16s: the float products, the very same floats.
TEST_CASE("Bf16Gemm.ShapesTheTilesDoNotTakeGiveTheFloatProducts") {
  SeededRandomSource rng(31);
  struct Shape {
    Eigen::Index rows, cols, inner;
    bool transposed_a;
  };
  for (const Shape& s : {Shape{17, 64, 33, false}, Shape{17, 20, 64, false}, Shape{17, 64, 288, false},
                         Shape{20, 64, 64, true}, Shape{5, 272, 64, false}}) {
    CAPTURE(s.rows);
    CAPTURE(s.cols);
    CAPTURE(s.inner);
    const Matrix x = s.transposed_a ? RandomMatrix(s.inner, s.rows, rng) : RandomMatrix(s.rows, s.inner, rng);
    const Matrix b = RandomMatrix(s.inner, s.cols, rng);
    Matrix exact(s.rows, s.cols), rounded(s.rows, s.cols);
    GemmOperands m{x.data(), s.transposed_a ? 1 : s.inner, s.transposed_a ? s.rows : 1, b.data(), s.cols,
                   exact.data(), s.cols};
    TallGemm(m, s.rows, s.cols, s.inner, false);
    m.c = rounded.data();
    m.bf16 = true;
    TallGemm(m, s.rows, s.cols, s.inner, false);
    CHECK(rounded == exact);
  }
}
