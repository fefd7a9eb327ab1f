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

TEST_CASE("SoftmaxCrossEntropy.GradientTheSameFloatsAsEigensRowExpressions") {
  // Its backward pass in plain loops, fresh (the first gradient of the
  // logits) and adding to one (the logits used twice).
  SeededRandomSource rng(37);
  for (Eigen::Index cols : {2, 4, 7, 16}) {
    Parameter z("z", 5000, static_cast<int>(cols));
    for (Eigen::Index i = 0; i < z.value.size(); ++i) z.value.data()[i] = static_cast<float>(3 * UniformUnit(rng));
    std::vector<int> labels(5000);
    std::int64_t labelled = 0;
    for (int& y : labels) {
      y = UniformUnit(rng) < 0.5 ? -1 : static_cast<int>(UniformUnit(rng) * static_cast<double>(cols));
      labelled += y >= 0;
    }
    z.ZeroGrad();
    SeededRandomSource tape_rng(41);
    Tape tape(true, &tape_rng);
    const Tape::Var zv = tape.Param(&z);
    tape.Backward(tape.Add(tape.SoftmaxCrossEntropy(zv, &labels), tape.SoftmaxCrossEntropy(zv, &labels)));

    const Matrix p = EigenSoftmax(z.value);
    const float upstream = 1.0f * (1.0f / static_cast<float>(labelled));
    Matrix want = Matrix::Zero(p.rows(), p.cols());
    for (int pass = 0; pass < 2; ++pass) {
      for (Eigen::Index i = 0; i < p.rows(); ++i) {
        const int y = labels[static_cast<std::size_t>(i)];
        if (y < 0) continue;
        want.row(i) += upstream * p.row(i);
        want(i, y) -= upstream;
      }
    }
    CAPTURE(cols);
    CHECK(std::memcmp(z.grad.data(), want.data(), sizeof(float) * static_cast<std::size_t>(want.size())) == 0);
  }
}
