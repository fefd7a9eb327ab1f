// Sparse products against dense ones: plain and block-diagonal, unit and
// explicit weights, every width the kernels specialise (16, 32, 64) and one
// they do not.
#include "engine/sparse_matrix.h"

#include <doctest/doctest.h>

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
