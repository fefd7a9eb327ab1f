// Sparse products against dense ones: plain and block-diagonal, unit and
// explicit weights, every width the kernels specialise (16, 32, 64) and one
// they do not.
#include "engine/sparse_matrix.h"

#include <doctest/doctest.h>

#include "ldpgraph/samplers.h"

using namespace ldpgraph;

namespace {

// A random n x n matrix with about `density` of its entries set.
SparseMatrix RandomSparse(std::int64_t n, double density, bool unit, RandomSource& rng) {
  SparseMatrix m;
  m.rows = m.cols = n;
  for (std::int64_t r = 0; r < n; ++r) {
    for (std::int64_t c = 0; c < n; ++c) {
      if (UniformUnit(rng) < density) {
        m.indices.push_back(static_cast<std::int32_t>(c));
        if (!unit) m.values.push_back(static_cast<float>(UniformUnit(rng)) - 0.5f);
      }
    }
    m.offsets.push_back(m.nnz());
  }
  return m;
}

Matrix Dense(const SparseMatrix& m) {
  Matrix d = Matrix::Zero(m.rows, m.cols);
  for (std::int64_t r = 0; r < m.rows; ++r) {
    for (std::int64_t k = m.offsets[r]; k < m.offsets[r + 1]; ++k) {
      d(r, m.indices[k]) += m.unit_weights() ? 1.0f : m.values[k];
    }
  }
  return d;
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
      CHECK((y - Dense(a) * x).cwiseAbs().maxCoeff() < 1e-4f);
      Matrix yt;
      const SparseMatrix t = a.Transposed();
      CHECK(t.unit_weights() == unit);
      SpMM(t, x, &yt);
      CHECK((yt - Dense(a).transpose() * x).cwiseAbs().maxCoeff() < 1e-4f);
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
    whole.block(at, at, blocks[b].rows, blocks[b].rows) = Dense(blocks[b]);
  }
  for (int width : {5, 64}) {
    const Matrix x = RandomDense(view.rows(), width, rng);
    Matrix y;
    SpMM(view, x, &y);
    CAPTURE(width);
    CHECK((y - whole * x).cwiseAbs().maxCoeff() < 1e-3f);
  }
}
