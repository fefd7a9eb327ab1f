// Dropout's masks (engine/dropout_draws.h): each element kept with its
// probability, elements independent of their neighbours in a word, a row
// and a column, calls independent of each other, the same masks on any
// thread count, and a user's masks following her through a renumbering;
// the gradient dropped where the value was.
#include "engine/dropout_draws.h"

#include <doctest/doctest.h>

#include <cmath>
#include <numeric>
#include <vector>

#include "engine/parallel.h"
#include "engine/sparse_matrix.h"
#include "engine/tape.h"
#include "ldpgraph/samplers.h"

using namespace ldpgraph;

namespace {

// |observed - expected| within 5 standard deviations of a binomial count.
bool WithinBinomial(double count, double trials, double p) {
  return std::fabs(count - trials * p) < 5 * std::sqrt(trials * p * (1 - p));
}

}  // namespace

TEST_CASE("DropoutDraws.KeepEachElementWithItsProbabilityAndIndependently") {
  const std::int64_t rows = 6000, cols = 13;  // rows that share words
  for (float p : {0.1f, 0.5f, 0.9f}) {
    CAPTURE(p);
    const DropoutDraws draws(0x1234 + static_cast<std::uint64_t>(p * 100), p, cols, nullptr);
    const double keep = 1.0 - static_cast<double>(static_cast<std::uint16_t>(p * 65536.0f)) / 65536.0;
    CHECK(draws.keep_scale() == doctest::Approx(1.0 / keep));
    double kept = 0, both_in_word = 0, both_in_row = 0, both_down = 0;
    int disagree = 0;
    std::vector<float> row(cols), below(cols);
    for (std::int64_t r = 0; r < rows; ++r) {
      draws.Row(r, row.data());
      if (r + 1 < rows) draws.Row(r + 1, below.data());
      for (std::int64_t c = 0; c < cols; ++c) {
        const bool k = row[static_cast<std::size_t>(c)] != 0;
        disagree += k != draws.Kept(r, c);  // Row and Kept agree
        disagree += row[static_cast<std::size_t>(c)] != 0 && row[static_cast<std::size_t>(c)] != draws.keep_scale();
        kept += k;
        // Neighbours: the next element (often the same 64-bit word), the
        // element 2 on (a row apart in words when the row ends), the one below.
        if (c + 1 < cols) both_in_word += k && row[static_cast<std::size_t>(c + 1)] != 0;
        if (c + 2 < cols) both_in_row += k && row[static_cast<std::size_t>(c + 2)] != 0;
        if (r + 1 < rows) both_down += k && below[static_cast<std::size_t>(c)] != 0;
      }
    }
    CHECK(disagree == 0);
    CHECK(WithinBinomial(kept, rows * cols, keep));
    CHECK(WithinBinomial(both_in_word, rows * (cols - 1), keep * keep));
    CHECK(WithinBinomial(both_in_row, rows * (cols - 2), keep * keep));
    CHECK(WithinBinomial(both_down, (rows - 1) * cols, keep * keep));
  }
}

TEST_CASE("DropoutDraws.CallsAreIndependentAndMasksFollowTheRowIds") {
  const std::int64_t rows = 5000, cols = 16;
  const DropoutDraws a(1, 0.5f, cols, nullptr), b(2, 0.5f, cols, nullptr);
  double agree = 0;
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int64_t c = 0; c < cols; ++c) agree += a.Kept(r, c) == b.Kept(r, c);
  }
  CHECK(WithinBinomial(agree, rows * cols, 0.5));  // another key: another mask
  // Users renumbered: row r stands for user ids[r] and draws her mask.
  std::vector<std::uint32_t> ids(static_cast<std::size_t>(rows));
  std::iota(ids.begin(), ids.end(), 0u);
  SeededRandomSource rng(3);
  for (std::size_t i = ids.size() - 1; i > 0; --i) std::swap(ids[i], ids[UniformBelow(rng, i + 1)]);
  const DropoutDraws renumbered(1, 0.5f, cols, ids.data());
  int moved = 0;
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int64_t c = 0; c < cols; ++c) moved += renumbered.Kept(r, c) != a.Kept(ids[static_cast<std::size_t>(r)], c);
  }
  CHECK(moved == 0);
}

TEST_CASE("Tape.DropoutMasksFollowTheUsersAndAnyThreadCount") {
  // A tape over renumbered users (SetRowIds) drops each user's values as
  // the tape over the first numbering does, forward and backward, on one
  // thread or two; a matrix of another height ignores the ids.
  const Eigen::Index n = 4099, f = 16;
  SeededRandomSource fill(9);
  Parameter x("x", static_cast<int>(n), static_cast<int>(f));
  for (Eigen::Index i = 0; i < x.value.size(); ++i) x.value.data()[i] = static_cast<float>(UniformUnit(fill)) + 0.5f;
  std::vector<std::uint32_t> ids(static_cast<std::size_t>(n));
  std::iota(ids.begin(), ids.end(), 0u);
  for (std::size_t i = ids.size() - 1; i > 0; --i) std::swap(ids[i], ids[UniformBelow(fill, i + 1)]);
  Parameter moved("moved", static_cast<int>(n), static_cast<int>(f));
  for (Eigen::Index r = 0; r < n; ++r) moved.value.row(r) = x.value.row(ids[static_cast<std::size_t>(r)]);
  const Matrix g = Matrix::Constant(n, f, 1.0f);
  auto run = [&](Parameter* p, const std::vector<std::uint32_t>* row_ids, int threads) {
    const int before = EngineThreads();
    SetEngineThreads(threads);
    p->ZeroGrad();
    SeededRandomSource rng(21);
    Tape tape(true, &rng);
    tape.SetRowIds(row_ids);
    const Tape::Var y = tape.Dropout(tape.Param(p), 0.4f);
    const Matrix out = tape.value(y);
    tape.Backward(tape.Dot(y, &g));
    SetEngineThreads(before);
    return out;
  };
  const Matrix first = run(&x, nullptr, 1);
  const Matrix first_grad = x.grad;
  CHECK(run(&x, nullptr, 2) == first);
  CHECK(x.grad == first_grad);
  const Matrix renumbered = run(&moved, &ids, 2);
  for (Eigen::Index r = 0; r < n; ++r) {
    REQUIRE(renumbered.row(r) == first.row(ids[static_cast<std::size_t>(r)]));
    REQUIRE(moved.grad.row(r) == first_grad.row(ids[static_cast<std::size_t>(r)]));
  }
  // The gradient passes where the value was kept, scaled alike.
  for (Eigen::Index i = 0; i < first.size(); ++i) {
    REQUIRE((first.data()[i] == 0) == (first_grad.data()[i] == 0));
  }
  std::vector<std::uint32_t> short_ids(10);
  CHECK(run(&x, &short_ids, 2) == first);
}

TEST_CASE("Tape.SparseInputDropoutFollowsTheUsers") {
  // A sparse input's stored entries, renumbered with their rows, are
  // dropped alike (x W with W the identity reads the dropped input back).
  const std::int64_t n = 3000, d = 40;
  SparseMatrix x;
  x.rows = n;
  x.cols = d;
  SeededRandomSource rng(13);
  for (std::int64_t r = 0; r < n; ++r) {
    for (std::int64_t c = 0; c < d; ++c) {
      if (UniformUnit(rng) < 0.2) {
        x.indices.push_back(static_cast<std::int32_t>(c));
        x.values.push_back(static_cast<float>(1 + UniformUnit(rng)));
      }
    }
    x.offsets.push_back(x.nnz());
  }
  std::vector<std::uint32_t> ids(static_cast<std::size_t>(n));
  std::iota(ids.begin(), ids.end(), 0u);
  for (std::size_t i = ids.size() - 1; i > 0; --i) std::swap(ids[i], ids[UniformBelow(rng, i + 1)]);
  SparseMatrix moved;
  moved.rows = n;
  moved.cols = d;
  for (std::int64_t r = 0; r < n; ++r) {
    const std::uint32_t from = ids[static_cast<std::size_t>(r)];
    for (std::int64_t k = x.offsets[from]; k < x.offsets[from + 1]; ++k) {
      moved.indices.push_back(x.indices[k]);
      moved.values.push_back(x.values[static_cast<std::size_t>(k)]);
    }
    moved.offsets.push_back(moved.nnz());
  }
  Parameter identity("w", static_cast<int>(d), static_cast<int>(d));
  identity.value.setIdentity();
  auto dropped = [&](const SparseMatrix* m, const std::vector<std::uint32_t>* row_ids) {
    SeededRandomSource keys(4);
    Tape tape(true, &keys);
    tape.SetRowIds(row_ids);
    return Matrix(tape.value(tape.InputProduct(tape.Input(m, 0.5f), tape.Param(&identity))));
  };
  const Matrix first = dropped(&x, nullptr), renumbered = dropped(&moved, &ids);
  for (Eigen::Index r = 0; r < n; ++r) REQUIRE(renumbered.row(r) == first.row(ids[static_cast<std::size_t>(r)]));
  CHECK((first.array() == 0).count() > (ToDense(x).array() == 0).count());  // some stored entries dropped
}

TEST_CASE("DropoutDraws.RunDrawsWhatKeptDraws") {
  // Rows starting at every offset inside a word, counts across Run's blocks.
  const std::vector<std::uint32_t> ids = {7, 0, 123456789, 4000000000u};
  for (std::int64_t cols : {std::int64_t{13}, std::int64_t{1} << 32}) {
    const DropoutDraws draws(99, 0.3f, cols, ids.data());
    for (std::int64_t row = 0; row < 4; ++row) {
      for (std::int64_t count : {0, 1, 3, 4, 5, 13, 300, 1000}) {
        if (count > cols) continue;
        std::vector<float> run(static_cast<std::size_t>(count) + 1, -1.0f);
        draws.Run(row, count, run.data());
        CAPTURE(cols);
        CAPTURE(row);
        CAPTURE(count);
        int differ = 0;
        for (std::int64_t c = 0; c < count; ++c) {
          differ += (run[static_cast<std::size_t>(c)] != 0.0f) != draws.Kept(row, c);
        }
        CHECK(differ == 0);
        CHECK(run.back() == -1.0f);  // nothing written past the count
      }
    }
  }
}
