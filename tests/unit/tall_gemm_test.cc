// The register-tiled products against Eigen's: every tile shape (rows not a
// multiple of the tile, 1 to 5 vectors of columns, inner dimensions across
// the streaming block), both ways of addressing A (X and X^T), overwrite and
// accumulate, and columns that are not whole vectors (the Eigen fallback).
#include "engine/tall_gemm.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "engine/matrix.h"
#include "ldpgraph/samplers.h"
#include "support/random_matrix.h"

using namespace ldpgraph;
using ldpgraph::testing::MaxError;
using ldpgraph::testing::RandomMatrix;

TEST_CASE("TallGemm.MatchesEigenForEveryTileShape") {
  SeededRandomSource rng(11);
  for (Eigen::Index rows : {1, 5, 6, 7, 13, 100}) {
    for (Eigen::Index cols : {16, 32, 48, 64, 80, 128, 3, 20}) {
      for (Eigen::Index inner : {1, 7, 64, 300, 600}) {
        for (bool transposed_a : {false, true}) {
          for (bool accumulate : {false, true}) {
            CAPTURE(rows);
            CAPTURE(cols);
            CAPTURE(inner);
            CAPTURE(transposed_a);
            CAPTURE(accumulate);
            // A is rows x inner; stored as X (rows x inner) or as X^T's source (inner x rows).
            const Matrix x = transposed_a ? RandomMatrix(inner, rows, rng) : RandomMatrix(rows, inner, rng);
            const Matrix a = transposed_a ? Matrix(x.transpose()) : x;
            const Matrix b = RandomMatrix(inner, cols, rng);
            const Matrix start = RandomMatrix(rows, cols, rng);
            Matrix c = start;
            GemmOperands m{x.data(), transposed_a ? 1 : inner, transposed_a ? rows : 1, b.data(), cols, c.data(), cols};
            TallGemm(m, rows, cols, inner, accumulate);
            const Matrix want = accumulate ? Matrix(start + a * b) : Matrix(a * b);
            CHECK(MaxError(c, want) < 1e-5f * static_cast<float>(inner + 1));
          }
        }
      }
    }
  }
}

TEST_CASE("TallGemm.WritesOnlyItsBlockOfALargerMatrix") {
  // C is a 4 x 32 block inside a 10 x 48 matrix: the rest stays untouched.
  SeededRandomSource rng(5);
  const Matrix a = RandomMatrix(4, 9, rng), b = RandomMatrix(9, 32, rng);
  Matrix big = RandomMatrix(10, 48, rng);
  const Matrix before = big;
  GemmOperands m{a.data(), 9, 1, b.data(), 32, big.data() + 2 * 48 + 16, 48};
  TallGemm(m, 4, 32, 9, false);
  CHECK(MaxError(big.block(2, 16, 4, 32), a * b) < 1e-5f);
  CHECK(big.topRows(2) == before.topRows(2));
  CHECK(big.bottomRows(4) == before.bottomRows(4));
  CHECK(big.block(2, 0, 4, 16) == before.block(2, 0, 4, 16));
}

TEST_CASE("TallGemm.EmptyInnerDimensionGivesZerosOrLeavesC") {
  Matrix c = Matrix::Constant(3, 16, 2.0f);
  const float unused = 0;
  GemmOperands m{&unused, 0, 1, &unused, 16, c.data(), 16};
  TallGemm(m, 3, 16, 0, true);
  CHECK(c == Matrix::Constant(3, 16, 2.0f));
  TallGemm(m, 3, 16, 0, false);
  CHECK(c == Matrix::Zero(3, 16));
}

// The Linear layer's bias, added as each tile is stored, must give the very
// floats that adding it in a pass after the product gave (model files and
// seeded runs stay the same), on the tiled path, the Eigen fallback, across
// inner blocks and with an empty inner dimension.
TEST_CASE("TallGemm.BiasAddedAtTheStoreIsBitForBitABiasPassAfter") {
  SeededRandomSource rng(17);
  for (Eigen::Index rows : {1, 6, 13}) {
    for (Eigen::Index cols : {16, 64, 80, 20}) {
      for (Eigen::Index inner : {0, 1, 64, 600}) {
        for (bool accumulate : {false, true}) {
          CAPTURE(rows);
          CAPTURE(cols);
          CAPTURE(inner);
          CAPTURE(accumulate);
          const Matrix a = RandomMatrix(rows, std::max<Eigen::Index>(inner, 1), rng);
          const Matrix b = RandomMatrix(std::max<Eigen::Index>(inner, 1), cols, rng);
          const Matrix bias = RandomMatrix(1, cols, rng), start = RandomMatrix(rows, cols, rng);
          Matrix plain = start, fused = start;
          TallGemm({a.data(), a.cols(), 1, b.data(), cols, plain.data(), cols}, rows, cols, inner, accumulate);
          for (Eigen::Index r = 0; r < rows; ++r) {
            for (Eigen::Index j = 0; j < cols; ++j) plain(r, j) = plain(r, j) + bias(0, j);
          }
          TallGemm({a.data(), a.cols(), 1, b.data(), cols, fused.data(), cols, bias.data()}, rows, cols, inner,
                   accumulate);
          CHECK(fused == plain);
        }
      }
    }
  }
}
