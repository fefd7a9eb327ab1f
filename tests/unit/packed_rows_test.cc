// Packed rows (engine/packed_rows.h): values stored as their nearest
// bfloat16 in the paired layout; the product Z W and the weight gradient
// Z^T G on AMX tiles against plain loops over the same stored values with
// W and G rounded the same way and summed in double, for every shape the
// tiles split differently (users odd and past a block of 32, columns not a
// multiple of 16, outputs beyond a pass of two panels, gradients across
// chunks of 256 users and over both threads); the plain loops, where no
// tiles are, against a dense product.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <utility>

#include "engine/kernels/kernel_table.h"
#include "engine/packed_rows.h"
#include "ldpgraph/samplers.h"
#include "support/bf16_rounding.h"
#include "support/random_matrix.h"

using namespace ldpgraph;
using ldpgraph::testing::MaxError;
using ldpgraph::testing::RoundToBf16;
using ldpgraph::testing::Rounded;
using ldpgraph::testing::RandomMatrix;

namespace {

PackedRows Pack(const Matrix& x) {
  PackedRows z(x.rows(), x.cols());
  // In two blocks of columns, as the KProp pass fills it.
  const Eigen::Index half = x.cols() / 2;
  z.SetColumns(x.leftCols(half), 0);
  z.SetColumns(x.rightCols(x.cols() - half), half);
  return z;
}

// A random case: the inputs packed, the weights and output gradients as floats.
struct Operands {
  Matrix x, w, g;
  PackedRows z;
  Eigen::MatrixXd stored;  // the packed values, in double
};

Operands RandomOperands(Eigen::Index rows, Eigen::Index cols, Eigen::Index out, SeededRandomSource& rng) {
  Matrix x = RandomMatrix(rows, cols, rng), w = RandomMatrix(cols, out, rng);
  Matrix g = RandomMatrix(rows, out, rng);
  PackedRows z = Pack(x);
  Eigen::MatrixXd stored = Rounded(x).cast<double>();
  return {std::move(x), std::move(w), std::move(g), std::move(z), std::move(stored)};
}

}  // namespace

TEST_CASE("PackedRows.HoldEachValueAsItsNearestBf16") {
  SeededRandomSource rng(5);
  const Matrix x = RandomMatrix(37, 21, rng);
  const PackedRows z = Pack(x);
  CHECK(z.padded_cols() == 32);
  CHECK(z.pair_rows() == 32);
  CHECK(z.bytes() == 32 * 32 * 4);
  for (Eigen::Index r = 0; r < x.rows(); ++r) {
    for (Eigen::Index c = 0; c < x.cols(); ++c) REQUIRE(z.At(r, c) == RoundToBf16(x(r, c)));
  }
}

TEST_CASE("PackedRows.PlainLoopsMatchADenseProduct") {
  SeededRandomSource rng(7);
  const Matrix x = RandomMatrix(41, 19, rng), w = RandomMatrix(19, 5, rng), g = RandomMatrix(41, 5, rng);
  const PackedRows z = Pack(x);
  const Matrix stored = Rounded(x);
  Matrix y, gw;
  PackedProductPlain(z, w, &y);
  CHECK(MaxError(y, stored * w) < 1e-5);
  PackedWeightGradientPlain(z, g, &gw, true);
  CHECK(MaxError(gw, stored.transpose() * g) < 1e-5);
  const Matrix before = gw;
  PackedWeightGradientPlain(z, g, &gw, false);
  CHECK(MaxError(gw, 2 * before) < 1e-5);
}

TEST_CASE("PackedRows.TilesMatchRoundedOperandsSummedExactly") {
  if (Bf16Kernels() == nullptr) {
    MESSAGE("skipped: this CPU (or kernel, or LDPGRAPH_ISA) offers no AMX bfloat16 tiles");
    return;
  }
  CHECK(PackedProductsFast());
  SeededRandomSource rng(11);
  for (Eigen::Index rows : {1, 31, 32, 33, 100, 600, 70001}) {
    for (Eigen::Index cols : {5, 16, 40, 500}) {
      for (Eigen::Index out : {16, 32, 48, 64}) {
        if (rows > 1000 && (cols != 40 || out != 16)) continue;  // threads: one shape
        CAPTURE(rows);
        CAPTURE(cols);
        CAPTURE(out);
        const Operands o = RandomOperands(rows, cols, out, rng);
        const Matrix &w = o.w, &g = o.g;
        const PackedRows& z = o.z;
        const Eigen::MatrixXd& stored = o.stored;
        Matrix y;
        PackedProduct(z, w, &y);
        REQUIRE(y.rows() == rows);
        REQUIRE(y.cols() == out);
        const Matrix want_y = (stored * Rounded(w).cast<double>()).cast<float>();
        // Float sums of up to 500 products of numbers below 1.
        CHECK(MaxError(y, want_y) < 1e-4 * static_cast<float>(cols));
        Matrix gw = Matrix::Constant(cols, out, 3.0f);
        PackedWeightGradient(z, g, &gw, true);
        const Matrix want_gw = (stored.transpose() * Rounded(g).cast<double>()).cast<float>();
        CHECK(MaxError(gw, want_gw) < 1e-4 * static_cast<float>(rows));
        PackedWeightGradient(z, g, &gw, false);
        CHECK(MaxError(gw, 2 * want_gw) < 2e-4 * static_cast<float>(rows));
      }
    }
  }
}

TEST_CASE("PackedRows.VectorKernelsMatchStoredValuesSummedExactly") {
  // Every ISA level's FMA kernels (the route without AMX), W and G as floats,
  // over pair blocks split as two threads split them.
  SeededRandomSource rng(13);
  for (const KernelTable* k : SupportedKernelTables()) {
    for (Eigen::Index rows : {1, 31, 33, 100, 601}) {
      for (Eigen::Index cols : {5, 40, 500}) {
        for (Eigen::Index out : {16, 32, 48}) {
          CAPTURE(k->isa);
          CAPTURE(rows);
          CAPTURE(cols);
          CAPTURE(out);
          const Operands o = RandomOperands(rows, cols, out, rng);
          const PackedRows& z = o.z;
          Matrix padded = Matrix::Zero(z.padded_cols(), out);
          padded.topRows(cols) = o.w;
          const std::ptrdiff_t split = z.pair_rows() > 16 ? 16 : z.pair_rows();
          Matrix y = Matrix::Constant(rows, out, 7.0f);  // every row overwritten
          k->packed_product(z.data(), z.padded_cols(), 0, split, padded.data(), out, out, y.data(), out, rows, false);
          k->packed_product(z.data(), z.padded_cols(), split, z.pair_rows(), padded.data(), out, out, y.data(), out,
                            rows, false);
          const Matrix want_y = (o.stored * o.w.cast<double>()).cast<float>();
          CHECK(MaxError(y, want_y) < 1e-5 * static_cast<float>(cols));
          Matrix gt = Matrix::Zero(out, z.padded_cols());
          k->packed_gradient(z.data(), z.padded_cols(), 0, split, o.g.data(), out, out, rows, gt.data());
          k->packed_gradient(z.data(), z.padded_cols(), split, z.pair_rows(), o.g.data(), out, out, rows, gt.data());
          const Matrix want_gw = (o.stored.transpose() * o.g.cast<double>()).cast<float>();
          CHECK(MaxError(gt.leftCols(cols).transpose(), want_gw) < 1e-5 * static_cast<float>(rows));
          CHECK(gt.rightCols(z.padded_cols() - cols).cwiseAbs().maxCoeff() == 0.0f);  // the padding's zeros
        }
      }
    }
  }
}

TEST_CASE("PackedRows.FastWithoutAmxWhereVectorsHaveEightLanes") {
  // What the packing decision (train/factored_kprop.cc) rests on.
  CHECK(PackedProductsFast() == (Bf16Kernels() != nullptr || Kernels().float_lanes >= 8));
  SeededRandomSource rng(17);
  const Matrix x = RandomMatrix(77, 30, rng), w = RandomMatrix(30, 16, rng), g = RandomMatrix(77, 16, rng);
  const PackedRows z = Pack(x);
  Matrix y, want_y, gw, want_gw;
  PackedProduct(z, w, &y);
  PackedProductPlain(z, w, &want_y);
  PackedWeightGradient(z, g, &gw, true);
  PackedWeightGradientPlain(z, g, &want_gw, true);
  // Within bfloat16 rounding of W and G on tiles, float rounding otherwise.
  CHECK(MaxError(y, want_y) < 0.05f);
  CHECK(MaxError(gw, want_gw) < 0.5f);
}
