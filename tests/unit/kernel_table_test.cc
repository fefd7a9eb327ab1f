// Every copy of the engine's hot loops this CPU can run (x86-64, and -v3 and
// -v4 where the CPU has AVX2 / AVX-512) against plain double-precision loops
// written here: the register-tiled product, the row passes (BatchNorm's
// with and without the fused ReLU, biases, pooling), the sparse row products at every width the
// models use and one they do not, and their bfloat16 form with its rounding. And the run-time choice itself.
#include "engine/kernels/kernel_table.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "ldpgraph/samplers.h"

using namespace ldpgraph;

namespace {

std::vector<float> Random(std::size_t n, RandomSource& rng) {
  std::vector<float> v(n);
  for (float& x : v) x = static_cast<float>(UniformUnit(rng)) - 0.5f;
  return v;
}

// |got - want| <= tolerance (relative to the terms summed) everywhere.
void CheckClose(const std::vector<float>& got, const std::vector<double>& want, double tolerance) {
  REQUIRE(got.size() == want.size());
  double worst = 0;
  for (std::size_t i = 0; i < got.size(); ++i) worst = std::max(worst, std::abs(got[i] - want[i]));
  CHECK(worst <= tolerance);
}

std::string Levels() {
  std::string out;
  for (const KernelTable* t : SupportedKernelTables()) out += std::string(out.empty() ? "" : ", ") + t->isa;
  return out;
}

}  // namespace

TEST_CASE("Kernels.TheWidestSupportedLevelIsChosen") {
  const auto tables = SupportedKernelTables();
  REQUIRE(!tables.empty());
  MESSAGE("kernel levels this CPU runs: " << Levels() << "; chosen: " << std::string(Kernels().isa));
  const char* forced = std::getenv("LDPGRAPH_ISA");
  if (forced == nullptr || *forced == '\0') CHECK(&Kernels() == tables.back());
  for (std::size_t i = 1; i < tables.size(); ++i) CHECK(tables[i]->float_lanes >= tables[i - 1]->float_lanes);
}

TEST_CASE("Kernels.TallGemmMatchesPlainLoops") {
  SeededRandomSource rng(3);
  for (const KernelTable* k : SupportedKernelTables()) {
    CAPTURE(k->isa);
    for (std::ptrdiff_t rows : {1, 6, 7, 100}) {
      for (std::ptrdiff_t vectors : {1, 2, 3, 4, 5, 8}) {
        const std::ptrdiff_t cols = vectors * k->float_lanes;
        for (std::ptrdiff_t inner : {1, 64, 300}) {
          for (bool transposed : {false, true}) {
            for (bool accumulate : {false, true}) {
              CAPTURE(rows);
              CAPTURE(cols);
              CAPTURE(inner);
              const std::vector<float> a = Random(static_cast<std::size_t>(rows * inner), rng);
              const std::vector<float> b = Random(static_cast<std::size_t>(inner * cols), rng);
              std::vector<float> c = Random(static_cast<std::size_t>(rows * cols), rng);
              // A(r, p) stored row-major (rows x inner) or as the transpose's source (inner x rows).
              auto at = [&](std::ptrdiff_t r, std::ptrdiff_t p) {
                return transposed ? a[static_cast<std::size_t>(p * rows + r)] : a[static_cast<std::size_t>(r * inner + p)];
              };
              std::vector<double> want(c.size());
              for (std::ptrdiff_t r = 0; r < rows; ++r) {
                for (std::ptrdiff_t j = 0; j < cols; ++j) {
                  double sum = accumulate ? c[static_cast<std::size_t>(r * cols + j)] : 0.0;
                  for (std::ptrdiff_t p = 0; p < inner; ++p) sum += at(r, p) * double{b[static_cast<std::size_t>(p * cols + j)]};
                  want[static_cast<std::size_t>(r * cols + j)] = sum;
                }
              }
              const GemmOperands m{a.data(), transposed ? 1 : inner, transposed ? rows : 1, b.data(), cols,
                                   c.data(), cols};
              k->tall_gemm(m, rows, cols, inner, accumulate);
              CheckClose(c, want, 1e-6 * static_cast<double>(inner + 1));
            }
          }
        }
      }
    }
  }
}

TEST_CASE("Kernels.BatchNormPassesMatchPlainLoops") {
  SeededRandomSource rng(4);
  for (const KernelTable* k : SupportedKernelTables()) {
    CAPTURE(k->isa);
    for (std::ptrdiff_t f : {1, 7, 64, 100}) {
      const std::ptrdiff_t rows = 37;
      const auto n = static_cast<std::size_t>(rows * f), w = static_cast<std::size_t>(f);
      const std::vector<float> x = Random(n, rng), mean = Random(w, rng), gamma = Random(w, rng),
                               beta = Random(w, rng), mean_g = Random(w, rng), mean_gx = Random(w, rng),
                               scale = Random(w, rng);
      std::vector<float> invstd = Random(w, rng);
      for (float& v : invstd) v += 1.0f;
      CAPTURE(f);

      std::vector<float> sums(w, 1.0f), deviations(w, 2.0f);
      std::vector<double> want_sums(w, 1.0), want_dev(w, 2.0);
      for (std::size_t r = 0; r < static_cast<std::size_t>(rows); ++r) {
        for (std::size_t c = 0; c < w; ++c) {
          want_sums[c] += x[r * w + c];
          want_dev[c] += (double{x[r * w + c]} - mean[c]) * (double{x[r * w + c]} - mean[c]);
        }
      }
      k->column_sums(x.data(), rows, f, sums.data());
      for (bool overwrite : {false, true}) {
        std::vector<float> out = Random(n, rng);
        std::vector<double> want(n);
        for (std::size_t i = 0; i < n; ++i) want[i] = (overwrite ? 0.0 : double{out[i]}) + mean[i % w];
        k->broadcast_row(mean.data(), rows, f, out.data(), overwrite);
        CheckClose(out, want, 1e-6);
      }
      k->squared_deviations(x.data(), rows, f, mean.data(), deviations.data());
      CheckClose(sums, want_sums, 1e-5);
      CheckClose(deviations, want_dev, 1e-5);
      // Both moments around a shift (here `mean`) in one pass, added to what is there.
      std::vector<float> shifted(w, 1.0f), squares(w, 2.0f);
      std::vector<double> want_shifted(w, 1.0);
      for (std::size_t r = 0; r < static_cast<std::size_t>(rows); ++r) {
        for (std::size_t c = 0; c < w; ++c) want_shifted[c] += double{x[r * w + c]} - mean[c];
      }
      k->shifted_moments(x.data(), rows, f, mean.data(), shifted.data(), squares.data());
      CheckClose(shifted, want_shifted, 1e-5);
      CheckClose(squares, want_dev, 1e-5);

      for (bool relu : {false, true}) {
        CAPTURE(relu);
        std::vector<float> out(n);
        std::vector<double> want_xhat(n), want_out(n);
        for (std::size_t i = 0; i < n; ++i) {
          const std::size_t c = i % w;
          want_xhat[i] = (double{x[i]} - mean[c]) * invstd[c];
          const double v = want_xhat[i] * gamma[c] + beta[c];
          want_out[i] = relu && v < 0 ? 0.0 : v;
        }
        k->normalise_rows(x.data(), rows, f, mean.data(), invstd.data(), gamma.data(), beta.data(), out.data(), relu);
        CheckClose(out, want_out, 1e-5);

        // The backward kernels recompute xhat from x, mean and invstd.
        std::vector<float> grad = Random(n, rng), sum_g(w, 0.5f), sum_gx(w, -0.5f);
        std::vector<double> want_grad(n), want_g(w, 0.5), want_gx(w, -0.5);
        for (std::size_t i = 0; i < n; ++i) {
          const std::size_t c = i % w;
          want_grad[i] = relu && !(out[i] > 0.0f) ? 0.0 : grad[i];
          want_g[c] += want_grad[i];
          want_gx[c] += want_grad[i] * want_xhat[i];
        }
        k->gradient_sums(grad.data(), out.data(), x.data(), mean.data(), invstd.data(), rows, f, sum_g.data(),
                         sum_gx.data(), relu);
        CheckClose(grad, want_grad, 0);  // zeroed or untouched, exactly
        CheckClose(sum_g, want_g, 1e-5);
        CheckClose(sum_gx, want_gx, 1e-5);
      }

      for (bool fresh : {false, true}) {
        const std::vector<float> grad = Random(n, rng);
        std::vector<float> out = Random(n, rng);
        std::vector<double> want(n);
        for (std::size_t i = 0; i < n; ++i) {
          const std::size_t c = i % w;
          const double xhat = (double{x[i]} - mean[c]) * invstd[c];
          const double d = (double{grad[i]} - mean_g[c] - xhat * mean_gx[c]) * scale[c];
          want[i] = fresh ? d : out[i] + d;
        }
        k->input_gradient_rows(grad.data(), x.data(), mean.data(), invstd.data(), rows, f, mean_g.data(),
                               mean_gx.data(), scale.data(), out.data(), fresh);
        CheckClose(out, want, 1e-5);
      }
    }
  }
}

namespace {

// A random rows x cols CSR matrix with about `density` of its entries set,
// every seventh row empty, and a weight per entry.
struct Csr {
  std::vector<std::int64_t> offsets = {0};
  std::vector<std::int32_t> indices;
  std::vector<float> weights;
};
Csr RandomCsr(std::int64_t rows, std::int32_t cols, double density, RandomSource& rng) {
  Csr m;
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int32_t c = 0; c < cols; ++c) {
      if (r % 7 != 3 && UniformUnit(rng) < density) m.indices.push_back(c);
    }
    m.offsets.push_back(static_cast<std::int64_t>(m.indices.size()));
  }
  m.weights = Random(m.indices.size(), rng);
  return m;
}

}  // namespace

TEST_CASE("Kernels.SparseRowsMatchPlainLoops") {
  SeededRandomSource rng(5);
  const std::int64_t rows = 50, cols = 40;
  const Csr a = RandomCsr(rows, cols, 0.2, rng);
  const std::vector<std::int64_t>& offsets = a.offsets;
  const std::vector<std::int32_t>& indices = a.indices;
  const std::vector<float>& weights = a.weights;
  for (const KernelTable* k : SupportedKernelTables()) {
    CAPTURE(k->isa);
    for (std::ptrdiff_t width : {64, 32, 16, 8, 7, 6, 5, 4, 3, 2, 1, 20}) {
      for (const auto& mode : {std::pair{false, false}, {true, false}, {false, true}, {true, true}}) {
        // Plain copies: clang 14 cannot capture structured bindings in CAPTURE's lambda.
        const bool unit = mode.first;
        const bool prefetch = mode.second;
        CAPTURE(width);
        CAPTURE(unit);
        CAPTURE(prefetch);
        const std::vector<float> x = Random(static_cast<std::size_t>(cols * width), rng);
        std::vector<float> y(static_cast<std::size_t>(rows * width), 99.0f);  // every row overwritten
        std::vector<double> want(y.size(), 0.0);
        for (std::int64_t r = 0; r < rows; ++r) {
          for (std::int64_t e = offsets[r]; e < offsets[r + 1]; ++e) {
            const double s = unit ? 1.0 : weights[static_cast<std::size_t>(e)];
            for (std::ptrdiff_t c = 0; c < width; ++c) {
              want[static_cast<std::size_t>(r * width + c)] += s * x[static_cast<std::size_t>(indices[e] * width + c)];
            }
          }
        }
        // In two calls, as the parallel loop splits rows.
        k->sparse_rows(offsets.data(), indices.data(), unit ? nullptr : weights.data(), x.data(), width, 0, 20,
                       prefetch, y.data());
        k->sparse_rows(offsets.data(), indices.data(), unit ? nullptr : weights.data(), x.data(), width, 20, rows,
                       prefetch, y.data());
        CheckClose(y, want, 1e-5);
        // Rows of whole vectors summed together (x in L1, no prefetch) add
        // in each row's own order: the same floats as one row at a time.
        // (Not asked of the narrow rows, whose scalar loops the compiler
        // contracts differently on either side of the prefetch split.)
        if (width % 16 == 0) {
          std::vector<float> serial(y.size());
          k->sparse_rows(offsets.data(), indices.data(), unit ? nullptr : weights.data(), x.data(), width, 0, rows,
                         true, serial.data());
          CHECK(std::memcmp(y.data(), serial.data(), sizeof(float) * y.size()) == 0);
        }
      }
    }
  }
}

namespace {

float FromBf16(std::uint16_t h) {
  const std::uint32_t bits = static_cast<std::uint32_t>(h) << 16;
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

// The nearest bfloat16 by comparing the two neighbours in double, ties to
// the even one: a definition independent of the kernels' bit trick.
std::uint16_t NearestBf16(float f) {
  std::uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  const auto below = static_cast<std::uint16_t>(bits >> 16);  // toward zero
  if (std::isinf(f)) return below;
  const auto above = static_cast<std::uint16_t>(below + 1);    // away from zero (may reach infinity)
  const double down = std::abs(static_cast<double>(f) - FromBf16(below));
  // Past the largest finite value the step up is to infinity: measure it as
  // if the exponent went on (twice the largest binade's top), as IEEE does.
  const double up = (above & 0x7F80) == 0x7F80 ? std::ldexp(1.0, 128) - std::abs(static_cast<double>(f))
                                               : std::abs(static_cast<double>(FromBf16(above)) - f);
  if (down != up) return down < up ? below : above;
  return (below & 1) == 0 ? below : above;
}

}  // namespace

TEST_CASE("Kernels.RoundToBf16IsNearestTiesToEven") {
  SeededRandomSource rng(11);
  std::vector<float> x;
  // Ties both ways, one just above a tie, signs, zero, tiny, huge, and the largest float (which rounds to infinity).
  for (float f : {1.0f + 0x1p-8f, 1.0f + 0x3p-8f, 1.0f + 0x1p-8f + 0x1p-20f, -(1.0f + 0x1p-8f), 0.0f, -0.0f, 1e-40f,
                  3.0e38f, std::numeric_limits<float>::max(), std::numeric_limits<float>::infinity(),
                  -std::numeric_limits<float>::infinity()}) {
    x.push_back(f);
  }
  for (int i = 0; i < 997; ++i) {
    x.push_back(static_cast<float>((UniformUnit(rng) - 0.5) * std::ldexp(1.0, i % 60 - 30)));
  }
  const std::size_t finite = x.size();
  std::uint32_t nan_bits[] = {0x7FC00000u, 0x7F800001u, 0xFF800001u, 0x7FFFFFFFu};  // the second would carry into +inf
  for (std::uint32_t bits : nan_bits) {
    float f;
    std::memcpy(&f, &bits, sizeof f);
    x.push_back(f);
  }
  CHECK(NearestBf16(1.0f + 0x1p-8f) == 0x3F80);  // the reference itself: a tie goes to the even neighbour
  CHECK(NearestBf16(1.0f + 0x3p-8f) == 0x3F82);
  CHECK(NearestBf16(std::numeric_limits<float>::max()) == 0x7F80);
  for (const KernelTable* k : SupportedKernelTables()) {
    CAPTURE(k->isa);
    for (std::size_t count : {x.size(), x.size() - 5}) {  // a tail past the last full vector
      std::vector<std::uint16_t> out(count, 0x1234);
      k->round_to_bf16(x.data(), static_cast<std::int64_t>(count), out.data());
      for (std::size_t i = 0; i < count; ++i) {
        CAPTURE(i);
        CAPTURE(x[i]);
        if (i < finite) {
          CHECK(out[i] == NearestBf16(x[i]));
        } else {
          CHECK(std::isnan(FromBf16(out[i])));
          CHECK((out[i] & 0x8000) == ((nan_bits[i - finite] >> 16) & 0x8000));  // the sign is kept
        }
      }
    }
  }
}

TEST_CASE("Kernels.Bf16SparseRowsEqualFloatRowsOfTheRoundedValues") {
  SeededRandomSource rng(12);
  const std::int64_t rows = 60, cols = 45;
  const Csr a = RandomCsr(rows, cols, 0.3, rng);
  for (const KernelTable* k : SupportedKernelTables()) {
    CAPTURE(k->isa);
    for (std::ptrdiff_t width : {64, 32, 16}) {
      const std::vector<float> x = Random(static_cast<std::size_t>(cols * width), rng);
      std::vector<std::uint16_t> half(x.size());
      k->round_to_bf16(x.data(), static_cast<std::int64_t>(x.size()), half.data());
      std::vector<float> widened(x.size());
      for (std::size_t i = 0; i < x.size(); ++i) widened[i] = FromBf16(half[i]);
      for (const auto& mode : {std::pair{false, false}, {true, false}, {false, true}, {true, true}}) {
        const bool unit = mode.first;
        const bool prefetch = mode.second;
        CAPTURE(width);
        CAPTURE(unit);
        CAPTURE(prefetch);
        const float* w = unit ? nullptr : a.weights.data();
        std::vector<float> want(static_cast<std::size_t>(rows * width)), got(want.size(), 99.0f);
        k->sparse_rows(a.offsets.data(), a.indices.data(), w, widened.data(), width, 0, rows, prefetch, want.data());
        k->sparse_rows_bf16(a.offsets.data(), a.indices.data(), w, half.data(), width, 0, 25, prefetch, got.data());
        k->sparse_rows_bf16(a.offsets.data(), a.indices.data(), w, half.data(), width, 25, rows, prefetch, got.data());
        CHECK(got == want);  // the same sums in the same order: equal to the bit
      }
    }
  }
}

TEST_CASE("Kernels.FmaChainsConvergeAsTheirFormulaSays") {
  // Each chain is x <- 0.999 x + 0.001, which tends to 1 from any start.
  for (const KernelTable* k : SupportedKernelTables()) {
    CAPTURE(k->isa);
    // One step from lane 0's starts 1 + j, j = 0..11: 0.999 (12 + 66) + 12 x 0.001.
    CHECK(k->fma_chains(1.0f, 1) == doctest::Approx(0.999 * 78 + 0.012).epsilon(1e-5));
    CHECK(k->fma_chains(1.0f, 100000) == doctest::Approx(12.0).epsilon(1e-4));
  }
}

TEST_CASE("Kernels.SeluAndItsGradientMatchPlainLoops") {
  SeededRandomSource rng(11);
  const double scale = KernelTable::kSeluScale, alpha = KernelTable::kSeluAlpha;
  for (const KernelTable* k : SupportedKernelTables()) {
    CAPTURE(k->isa);
    for (std::size_t n : {1, 15, 16, 17, 1000}) {
      CAPTURE(n);
      std::vector<float> x = Random(n, rng), g = Random(n, rng);
      for (float& v : x) v *= 40.0f;  // both signs, and far into the saturated negative side
      if (n == 1000) x[3] = -200.0f, x[4] = 0.0f, x[5] = -1e-6f, x[6] = 88.0f;
      std::vector<double> want(n), want_gx(n);
      for (std::size_t i = 0; i < n; ++i) {
        want[i] = x[i] > 0 ? scale * x[i] : scale * alpha * std::expm1(static_cast<double>(x[i]));
        want_gx[i] = 0.5 + g[i] * (x[i] > 0 ? scale : scale * alpha * std::exp(static_cast<double>(x[i])));
      }
      std::vector<float> y(n), gx(n, 0.5f);
      k->selu(x.data(), static_cast<std::int64_t>(n), y.data());
      // Within 2e-7 of the scale (e^x's relative error, times scale alpha, near x = 0) or 1e-6 relative.
      for (std::size_t i = 0; i < n; ++i) CHECK(std::abs(y[i] - want[i]) <= 4e-7 + 1e-6 * std::abs(want[i]));
      k->selu_gradient(x.data(), y.data(), g.data(), static_cast<std::int64_t>(n), gx.data(), false);
      CheckClose(gx, want_gx, 1e-6);
      std::vector<float> fresh(n, 99.0f);
      k->selu_gradient(x.data(), y.data(), g.data(), static_cast<std::int64_t>(n), fresh.data(), true);
      for (std::size_t i = 0; i < n; ++i) CHECK(fresh[i] == doctest::Approx(gx[i] - 0.5f).epsilon(1e-5));
    }
  }
}

TEST_CASE("Kernels.NarrowGemmMatchesPlainLoops") {
  SeededRandomSource rng(13);
  for (const KernelTable* k : SupportedKernelTables()) {
    CAPTURE(k->isa);
    for (std::ptrdiff_t cols : {1, 2, 4, 7, 8, 11}) {
      for (std::ptrdiff_t inner : {1, 16, 33}) {
        for (bool accumulate : {false, true}) {
          CAPTURE(cols);
          CAPTURE(inner);
          const std::ptrdiff_t rows = 37;
          const std::vector<float> a = Random(static_cast<std::size_t>(rows * inner), rng);
          const std::vector<float> b = Random(static_cast<std::size_t>(inner * cols), rng);
          const std::vector<float> bias = Random(static_cast<std::size_t>(cols), rng);
          std::vector<float> c = Random(static_cast<std::size_t>(rows * cols), rng);
          std::vector<double> want(c.size());
          for (std::ptrdiff_t r = 0; r < rows; ++r) {
            for (std::ptrdiff_t j = 0; j < cols; ++j) {
              double sum = accumulate ? c[static_cast<std::size_t>(r * cols + j)] : 0.0;
              for (std::ptrdiff_t p = 0; p < inner; ++p) {
                sum += static_cast<double>(a[static_cast<std::size_t>(r * inner + p)]) * b[static_cast<std::size_t>(p * cols + j)];
              }
              want[static_cast<std::size_t>(r * cols + j)] = sum + bias[static_cast<std::size_t>(j)];
            }
          }
          GemmOperands m{a.data(), inner, 1, b.data(), cols, c.data(), cols, bias.data()};
          k->narrow_gemm(m, rows, cols, inner, accumulate);
          CheckClose(c, want, 1e-5 * static_cast<double>(inner + 1));
        }
      }
    }
  }
}

TEST_CASE("Kernels.NarrowWeightGradientMatchesPlainLoops") {
  // C = X^T G with X (inner x rows) addressed in place, as Linear's weight gradient asks.
  SeededRandomSource rng(17);
  for (const KernelTable* k : SupportedKernelTables()) {
    CAPTURE(k->isa);
    for (std::ptrdiff_t vectors : {1, 2, 3, 4}) {
      for (std::ptrdiff_t cols : {1, 3, 4}) {
        for (bool accumulate : {false, true}) {
          const std::ptrdiff_t rows = vectors * k->float_lanes, inner = 301;
          CAPTURE(rows);
          CAPTURE(cols);
          const std::vector<float> x = Random(static_cast<std::size_t>(inner * rows), rng);
          const std::vector<float> g = Random(static_cast<std::size_t>(inner * cols), rng);
          std::vector<float> c = Random(static_cast<std::size_t>(rows * cols), rng);
          std::vector<double> want(c.size());
          for (std::ptrdiff_t i = 0; i < rows; ++i) {
            for (std::ptrdiff_t j = 0; j < cols; ++j) {
              double sum = accumulate ? c[static_cast<std::size_t>(i * cols + j)] : 0.0;
              for (std::ptrdiff_t p = 0; p < inner; ++p) {
                sum += static_cast<double>(x[static_cast<std::size_t>(p * rows + i)]) * g[static_cast<std::size_t>(p * cols + j)];
              }
              want[static_cast<std::size_t>(i * cols + j)] = sum;
            }
          }
          GemmOperands m{x.data(), 1, rows, g.data(), cols, c.data(), cols};
          k->narrow_gemm(m, rows, cols, inner, accumulate);
          CheckClose(c, want, 1e-4);
        }
      }
    }
  }
}

TEST_CASE("Kernels.ScatterRowsMatchPlainLoops") {
  // A^T g for a sparse A (offsets, indices, weights with some dropped to 0), every width.
  SeededRandomSource rng(19);
  const std::int64_t rows = 50, cols = 7;
  std::vector<std::int64_t> offsets = {0};
  std::vector<std::int32_t> indices;
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int32_t c = 0; c < cols; ++c) {
      if (rng.NextU64() % 3 == 0) indices.push_back(c);
    }
    offsets.push_back(static_cast<std::int64_t>(indices.size()));
  }
  std::vector<float> weights = Random(indices.size(), rng);
  for (std::size_t k = 0; k < weights.size(); k += 5) weights[k] = 0.0f;  // dropped
  for (const KernelTable* k : SupportedKernelTables()) {
    CAPTURE(k->isa);
    for (std::ptrdiff_t width : {std::ptrdiff_t{3}, std::ptrdiff_t{k->float_lanes}, std::ptrdiff_t{2 * k->float_lanes},
                                 std::ptrdiff_t{4 * k->float_lanes}, std::ptrdiff_t{5 * k->float_lanes}}) {
      for (bool unit : {false, true}) {
        CAPTURE(width);
        CAPTURE(unit);
        const std::vector<float> g = Random(static_cast<std::size_t>(rows * width), rng);
        std::vector<double> want(static_cast<std::size_t>(cols * width), 0.25);
        for (std::int64_t r = 0; r < rows; ++r) {
          for (std::int64_t e = offsets[r]; e < offsets[r + 1]; ++e) {
            const double s = unit ? 1.0 : weights[static_cast<std::size_t>(e)];
            for (std::ptrdiff_t c = 0; c < width; ++c) {
              want[static_cast<std::size_t>(indices[static_cast<std::size_t>(e)] * width + c)] +=
                  s * g[static_cast<std::size_t>(r * width + c)];
            }
          }
        }
        std::vector<float> out(want.size(), 0.25f);
        // In two row ranges, as the threads split them.
        k->scatter_rows(offsets.data(), indices.data(), unit ? nullptr : weights.data(), g.data(), width, 0, 20,
                        out.data());
        k->scatter_rows(offsets.data(), indices.data(), unit ? nullptr : weights.data(), g.data(), width, 20, rows,
                        out.data());
        CheckClose(out, want, 1e-5);
      }
    }
  }
}
