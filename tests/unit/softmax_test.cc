// Softmax (engine/tape.cc) in plain loops gives, bit for bit, the floats of
// the Eigen row expressions every recorded result was trained through, for
// every row width and logits of any size.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>

#include "engine/tape.h"
#include "ldpgraph/random_source.h"
#include "ldpgraph/samplers.h"

using namespace ldpgraph;

namespace {

// The softmax as it was written before (engine/tape.cc until 2026-12-01).
Matrix EigenSoftmax(const Matrix& logits) {
  Matrix p(logits.rows(), logits.cols());
  for (Eigen::Index r = 0; r < p.rows(); ++r) {
    p.row(r) = logits.row(r).array() - logits.row(r).maxCoeff();
    for (Eigen::Index c = 0; c < p.cols(); ++c) p(r, c) = std::exp(p(r, c));
    p.row(r) /= p.row(r).sum();
  }
  return p;
}

}  // namespace

TEST_CASE("Softmax.TheSameFloatsAsEigensRowExpressions") {
  SeededRandomSource rng(31);
  for (Eigen::Index cols = 1; cols <= 17; ++cols) {
    for (double spread : {0.01, 1.0, 30.0}) {
      Matrix logits(5000, cols);  // past ForEachRowBlock's threshold: both threads
      for (Eigen::Index i = 0; i < logits.size(); ++i) {
        logits.data()[i] = static_cast<float>(spread * (2 * UniformUnit(rng) - 1));
      }
      CAPTURE(cols);
      CAPTURE(spread);
      const Matrix got = Softmax(logits), want = EigenSoftmax(logits);
      REQUIRE(got.rows() == want.rows());
      CHECK(std::memcmp(got.data(), want.data(), sizeof(float) * static_cast<std::size_t>(got.size())) == 0);
    }
  }
}
