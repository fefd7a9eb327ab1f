// Sparse products against dense ones: plain and block-diagonal, unit and
// explicit weights, every width the kernels specialise (16, 32, 64) and one
// they do not; and which products read their rows in bfloat16.
#include "engine/sparse_matrix.h"

#include <doctest/doctest.h>

#include <cstring>

#include "engine/kernels/kernel_table.h"
#include "engine/tape.h"
#include "ldpgraph/samplers.h"

using namespace ldpgraph;

namespace {

// A random rows x cols matrix (square when cols < 0) with about `density`
// of its entries set.
SparseMatrix RandomSparse(std::int64_t rows, double density, bool unit, RandomSource& rng, std::int64_t cols = -1) {
  SparseMatrix m;
  m.rows = rows;
  m.cols = cols < 0 ? rows : cols;
  for (std::int64_t r = 0; r < m.rows; ++r) {
    for (std::int64_t c = 0; c < m.cols; ++c) {
      if (UniformUnit(rng) < density) {
        m.indices.push_back(static_cast<std::int32_t>(c));
        if (!unit) m.values.push_back(static_cast<float>(UniformUnit(rng)) - 0.5f);
      }
    }
    m.offsets.push_back(m.nnz());
  }
  return m;
}

Matrix RandomDense(std::int64_t rows, std::int64_t cols, RandomSource& rng) {
  Matrix x(rows, cols);
  for (std::int64_t i = 0; i < x.size(); ++i) x.data()[i] = static_cast<float>(UniformUnit(rng)) * 2 - 1;
  return x;
}

}  // namespace

TEST_CASE("SpMM.MatchesTheDenseProduct") {
  SeededRandomSource rng(3);
  for (bool unit : {true, false}) {
    for (int width : {1, 7, 16, 32, 64}) {
      // 1500 rows: several parallel work items.
      const SparseMatrix a = RandomSparse(1500, 0.01, unit, rng);
      const Matrix x = RandomDense(1500, width, rng);
      Matrix y;
      SpMM(a, x, &y);
      CAPTURE(unit);
      CAPTURE(width);
      CHECK((y - ToDense(a) * x).cwiseAbs().maxCoeff() < 1e-4f);
      Matrix yt;
      const SparseMatrix t = a.Transposed();
      CHECK(t.unit_weights() == unit);
      SpMM(t, x, &yt);
      CHECK((yt - ToDense(a).transpose() * x).cwiseAbs().maxCoeff() < 1e-4f);
    }
  }
}

TEST_CASE("SpMM.BlockDiagonalEqualsTheAssembledMatrix") {
  SeededRandomSource rng(4);
  // Blocks of very different sizes (one empty), dense and sparse.
  std::vector<SparseMatrix> blocks;
  blocks.push_back(RandomSparse(3, 0.5, true, rng));
  blocks.push_back(RandomSparse(0, 0.5, true, rng));
  blocks.push_back(RandomSparse(700, 0.3, true, rng));
  blocks.push_back(RandomSparse(40, 0.1, true, rng));
  BlockDiagonal view;
  for (const auto& b : blocks) view.Append(&b);
  REQUIRE(view.rows() == 743);
  Matrix whole = Matrix::Zero(view.rows(), view.rows());
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    const auto at = view.offsets[b];
    whole.block(at, at, blocks[b].rows, blocks[b].rows) = ToDense(blocks[b]);
  }
  for (int width : {5, 64}) {
    const Matrix x = RandomDense(view.rows(), width, rng);
    Matrix y;
    SpMM(view, x, &y);
    CAPTURE(width);
    CHECK((y - whole * x).cwiseAbs().maxCoeff() < 1e-3f);
  }
}

TEST_CASE("SpMM.WithOtherValuesTransposedAndOfSparseInputs") {
  // The products of a sparse input layer: X W with dropped weights, the
  // weight gradient X^T G without forming X^T, and the first KProp step of
  // sparse features. Rectangular, 3000 rows: split over threads.
  SeededRandomSource rng(5);
  for (bool unit : {true, false}) {
    const SparseMatrix x = RandomSparse(3000, 0.01, unit, rng, 300);
    std::vector<float> values(static_cast<std::size_t>(x.nnz()));
    for (std::size_t k = 0; k < values.size(); ++k) values[k] = k % 3 == 0 ? 0.0f : static_cast<float>(k % 7) - 3;
    SparseMatrix replaced = x;
    replaced.values = values;
    for (int width : {4, 16}) {
      CAPTURE(unit);
      CAPTURE(width);
      const Matrix w = RandomDense(300, width, rng);
      Matrix y;
      SpMM(x, values.data(), w, &y);
      CHECK((y - ToDense(replaced) * w).cwiseAbs().maxCoeff() < 1e-3f);
      SpMM(x, nullptr, w, &y);  // null: every weight 1
      SparseMatrix ones = x;
      ones.values.clear();
      CHECK((y - ToDense(ones) * w).cwiseAbs().maxCoeff() < 1e-3f);

      const Matrix g = RandomDense(3000, width, rng);
      Matrix gw;
      SpMMTransposed(x, values.data(), g, &gw);
      REQUIRE(gw.rows() == 300);
      CHECK((gw - ToDense(replaced).transpose() * g).cwiseAbs().maxCoeff() < 1e-3f);
      SpMMTransposed(x, x.unit_weights() ? nullptr : x.values.data(), g, &gw);
      CHECK((gw - ToDense(x).transpose() * g).cwiseAbs().maxCoeff() < 1e-3f);
    }
    const SparseMatrix a = RandomSparse(3000, 0.002, false, rng);
    Matrix propagated;
    SpMM(a, x, &propagated);
    CHECK((propagated - ToDense(a) * ToDense(x)).cwiseAbs().maxCoeff() < 1e-4f);
  }
}

namespace {

// x rounded to bfloat16 and widened back, by the kernels (their rounding is
// checked against a reference in kernel_table_test).
Matrix Rounded(const Matrix& x) {
  std::vector<std::uint16_t> half(static_cast<std::size_t>(x.size()));
  Kernels().round_to_bf16(x.data(), x.size(), half.data());
  Matrix out(x.rows(), x.cols());
  for (std::size_t i = 0; i < half.size(); ++i) {
    const std::uint32_t bits = static_cast<std::uint32_t>(half[i]) << 16;
    std::memcpy(out.data() + i, &bits, sizeof bits);
  }
  return out;
}

bool Same(const Matrix& a, const Matrix& b) { return a.rows() == b.rows() && a.cols() == b.cols() && a == b; }

}  // namespace

TEST_CASE("SpMM.Bf16GathersReadTheRoundedRows") {
  // Which products read bfloat16: the hidden widths only, and under kAuto
  // only past 32 MB of rows that a product row may name.
  CHECK(GathersBf16(GatherPrecision::kBf16, 10, 64));
  CHECK(GathersBf16(GatherPrecision::kBf16, 10, 16));
  CHECK_FALSE(GathersBf16(GatherPrecision::kBf16, 10, 20));
  CHECK_FALSE(GathersBf16(GatherPrecision::kFloat, 1 << 30, 64));
  CHECK_FALSE(GathersBf16(GatherPrecision::kAuto, 131072, 64));  // exactly 32 MB
  CHECK(GathersBf16(GatherPrecision::kAuto, 131073, 64));
  CHECK(GathersBf16(GatherPrecision::kAuto, 524289, 16));
  CHECK_FALSE(GathersBf16(GatherPrecision::kAuto, 10000000, 7));

  SeededRandomSource rng(6);
  for (bool unit : {true, false}) {
    const SparseMatrix a = RandomSparse(1500, 0.01, unit, rng);
    for (int width : {7, 16, 32, 64}) {
      CAPTURE(unit);
      CAPTURE(width);
      const Matrix x = RandomDense(1500, width, rng);
      Matrix y, want;
      SpMM(a, x, &y, GatherPrecision::kBf16);
      SpMM(a, width == 7 ? x : Rounded(x), &want);  // width 7 reads floats
      CHECK(Same(y, want));
      if (width != 7) CHECK_FALSE(Same(y, [&] { Matrix f; SpMM(a, x, &f); return f; }()));
      SpMM(a, x, &y, GatherPrecision::kAuto);  // 1500 rows: floats
      SpMM(a, x, &want);
      CHECK(Same(y, want));
    }
  }
  // Block-diagonal: kAuto decides on the largest block, not the whole x.
  std::vector<SparseMatrix> blocks = {RandomSparse(300, 0.02, true, rng), RandomSparse(200, 0.03, false, rng)};
  BlockDiagonal view;
  for (const auto& b : blocks) view.Append(&b);
  const Matrix x = RandomDense(view.rows(), 32, rng);
  Matrix y, want;
  SpMM(view, x, &y, GatherPrecision::kBf16);
  SpMM(view, Rounded(x), &want);
  CHECK(Same(y, want));

  // kAuto past the bar: a matrix naming rows among 131,073 of 64 floats.
  SparseMatrix wide;
  wide.rows = 3;
  wide.cols = 131073;
  wide.offsets = {0, 2, 2, 5};
  wide.indices = {0, 131072, 7, 65536, 131072};
  const Matrix big = RandomDense(wide.cols, 64, rng);
  SpMM(wide, big, &y, GatherPrecision::kAuto);
  SpMM(wide, Rounded(big), &want);
  CHECK(Same(y, want));
}

TEST_CASE("Tape.AggregateGathersAsTheTapeIsTold") {
  // Forward (A x) and backward (A^T g) both read bfloat16 under kBf16.
  SeededRandomSource rng(7);
  const SparseMatrix a = RandomSparse(400, 0.02, false, rng, 300);
  const SparseMatrix a_t = a.Transposed();
  Parameter p("x", 300, 32);
  p.value = RandomDense(300, 32, rng);
  const Matrix weights = RandomDense(400, 32, rng);
  for (GatherPrecision precision : {GatherPrecision::kFloat, GatherPrecision::kBf16}) {
    CAPTURE(GatherPrecisionName(precision));
    p.ZeroGrad();
    Tape tape(false, nullptr);
    CHECK(DefaultGatherPrecision() == GatherPrecision::kAuto);
    tape.UseGathers(precision);
    const Tape::Var y = tape.Aggregate(&a, &a_t, tape.Param(&p));
    tape.Backward(tape.Dot(y, &weights));  // d/dx sum(y * weights) = A^T weights
    const bool bf16 = precision == GatherPrecision::kBf16;
    Matrix want_y, want_grad;
    SpMM(a, bf16 ? Rounded(p.value) : p.value, &want_y);
    SpMM(a_t, bf16 ? Rounded(weights) : weights, &want_grad);
    CHECK(Same(tape.value(y), want_y));
    CHECK(Same(p.grad, want_grad));
  }
}
