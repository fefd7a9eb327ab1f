// Random matrices for the engine's product tests (TallGemm and its
// bfloat16 variant), and how far two results are apart.
#ifndef LDPGRAPH_TESTS_SUPPORT_RANDOM_MATRIX_H_
#define LDPGRAPH_TESTS_SUPPORT_RANDOM_MATRIX_H_

#include "engine/matrix.h"
#include "ldpgraph/samplers.h"

namespace ldpgraph {
namespace testing {

// Entries uniform in [-0.5, 0.5).
inline Matrix RandomMatrix(Eigen::Index rows, Eigen::Index cols, RandomSource& rng) {
  Matrix m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = static_cast<float>(UniformUnit(rng)) - 0.5f;
  return m;
}

// The largest absolute difference of two equally shaped matrices.
inline float MaxError(const Matrix& got, const Matrix& want) { return (got - want).cwiseAbs().maxCoeff(); }

}  // namespace testing
}  // namespace ldpgraph

#endif  // LDPGRAPH_TESTS_SUPPORT_RANDOM_MATRIX_H_
