#include "bench/gemm_bench.h"

#include <Eigen/Core>
#include <memory>
#include <string>
#include <vector>

#include "bench/cblas_library.h"
#include "bench/cpu_rate.h"
#include "engine/kernels/kernel_table.h"
#include "engine/tall_gemm.h"

namespace ldpgraph {
namespace {

constexpr std::int64_t kWidth = 64;  // the GIN's hidden size

// One product the models run: C (m x n) = op(A) B over `inner`, op(A) = A
// (rows of node states) or, for a weight gradient, A^T read in place.
struct Shape {
  const char* name;
  std::int64_t m, n, inner;
  bool transpose_a;
};

using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Each shape by the engine (TallGemm), Eigen and every CBLAS library
// installed, one thread each, in one run: gemm_<shape>_<library>_gflops=,
// then which was fastest.
void CompareLibraries(std::int64_t rows, double seconds, std::ostream& out) {
  const Shape shapes[] = {{"gin_forward", rows, kWidth, kWidth, false},
                          {"gin_weight_gradient", kWidth, kWidth, rows, true},
                          {"last_layer_forward", rows, 4, 16, false},
                          {"last_layer_weight_gradient", 16, 4, rows, true},
                          {"dense_input_forward", rows, 16, 512, false}};
  std::vector<std::unique_ptr<CblasLibrary>> libraries;
  for (auto [name, soname] : {std::pair{"openblas", "libopenblas.so.0"}, std::pair{"blis", "libblis.so.4"}}) {
    if (auto library = CblasLibrary::Load(name, soname)) {
      libraries.push_back(std::move(library));
    } else {
      out << "gemm_" << name << "=not installed\n";
    }
  }
  const int eigen_threads = Eigen::nbThreads();
  Eigen::setNbThreads(1);
  for (const Shape& s : shapes) {
    const std::int64_t a_rows = s.transpose_a ? s.inner : s.m, a_cols = s.transpose_a ? s.m : s.inner;
    std::vector<float> a(static_cast<std::size_t>(a_rows * a_cols)), b(static_cast<std::size_t>(s.inner * s.n));
    std::vector<float> c(static_cast<std::size_t>(s.m * s.n));
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(i % 97) / 97.0f - 0.5f;
    for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>(i % 89) / 89.0f - 0.5f;
    const double flops = 2.0 * static_cast<double>(s.m) * static_cast<double>(s.n) * static_cast<double>(s.inner);
    std::string best = "engine";
    double best_rate = Rate(flops, seconds, [&] {
      const GemmOperands m = s.transpose_a ? GemmOperands{a.data(), 1, a_cols, b.data(), s.n, c.data(), s.n}
                                           : GemmOperands{a.data(), a_cols, 1, b.data(), s.n, c.data(), s.n};
      TallGemm(m, s.m, s.n, s.inner, false);
    });
    const std::string key = std::string("gemm_") + s.name + "_";
    out << key << "engine_gflops=" << best_rate / 1e9 << "\n";
    const double eigen = Rate(flops, seconds, [&] {
      Eigen::Map<const RowMajor> am(a.data(), a_rows, a_cols), bm(b.data(), s.inner, s.n);
      Eigen::Map<RowMajor> cm(c.data(), s.m, s.n);
      if (s.transpose_a) {
        cm.noalias() = am.transpose() * bm;
      } else {
        cm.noalias() = am * bm;
      }
    });
    out << key << "eigen_gflops=" << eigen / 1e9 << "\n";
    if (eigen > best_rate) best_rate = eigen, best = "eigen";
    for (const auto& library : libraries) {
      const double rate = Rate(flops, seconds, [&] {
        library->Sgemm(s.transpose_a, static_cast<int>(s.m), static_cast<int>(s.n), static_cast<int>(s.inner),
                       a.data(), static_cast<int>(a_cols), b.data(), static_cast<int>(s.n), c.data(),
                       static_cast<int>(s.n));
      });
      out << key << library->name() << "_gflops=" << rate / 1e9 << "\n";
      if (rate > best_rate) best_rate = rate, best = library->name();
    }
    out << key << "fastest=" << best << "\n";
    out.flush();
  }
  Eigen::setNbThreads(eigen_threads);
}


}  // namespace

Status RunGemmBench(const GemmBenchOptions& o, std::ostream& out) {
  if (o.rows < kWidth || o.rows > 10'000'000) return Status::InvalidArgument("--rows must be in [64, 10^7]");
  if (!(o.seconds > 0 && o.seconds <= 60)) return Status::InvalidArgument("--seconds must be in (0, 60]");
  const std::int64_t n = o.rows;
  std::vector<float> x(static_cast<std::size_t>(n * kWidth)), y(x.size()), w(kWidth * kWidth), gw(w.size());
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 97) / 97.0f - 0.5f;
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(i % 89) / 89.0f - 0.5f;
  const double product_flops = 2.0 * static_cast<double>(n) * kWidth * kWidth;
  const double forward = Rate(product_flops, o.seconds, [&] {
    TallGemm({x.data(), kWidth, 1, w.data(), kWidth, y.data(), kWidth}, n, kWidth, kWidth, false);
  });
  const double weight_gradient = Rate(product_flops, o.seconds, [&] {
    TallGemm({x.data(), 1, kWidth, y.data(), kWidth, gw.data(), kWidth}, kWidth, kWidth, n, false);
  });
  const KernelTable& kernels = Kernels();
  const double peak = FmaPeakPerCore(o.seconds);
  out << "rows=" << n << "\nwidth=" << kWidth << "\nkernel_isa=" << kernels.isa
      << "\nvector_lanes=" << kernels.float_lanes << "\nforward_gflops=" << forward / 1e9
      << "\nweight_gradient_gflops=" << weight_gradient / 1e9 << "\nfma_peak_gflops=" << peak / 1e9
      << "\nforward_share_of_peak=" << forward / peak << "\nweight_gradient_share_of_peak=" << weight_gradient / peak
      << "\n";
  // The same forward product with bfloat16 inputs on AMX tiles, where the CPU has them.
  if (Bf16Kernels() == nullptr) {
    out << "bf16_tile_peak_gflops=unsupported\nforward_bf16_gflops=unsupported\n"
        << "weight_gradient_bf16_gflops=unsupported\n";
  } else {
    GemmOperands rounded{x.data(), kWidth, 1, w.data(), kWidth, y.data(), kWidth};
    rounded.bf16 = true;
    const double bf16 = Rate(product_flops, o.seconds, [&] { TallGemm(rounded, n, kWidth, kWidth, false); });
    GemmOperands gradient{x.data(), 1, kWidth, y.data(), kWidth, gw.data(), kWidth};
    gradient.bf16 = true;
    const double bf16_gradient =
        Rate(product_flops, o.seconds, [&] { TallGemm(gradient, kWidth, kWidth, n, false); });
    out << "bf16_tile_peak_gflops=" << Bf16TilePeakPerCore(o.seconds) / 1e9
        << "\nforward_bf16_gflops=" << bf16 / 1e9 << "\nforward_bf16_over_float=" << bf16 / forward
        << "\nweight_gradient_bf16_gflops=" << bf16_gradient / 1e9
        << "\nweight_gradient_bf16_over_float=" << bf16_gradient / weight_gradient << "\n";
  }
  CompareLibraries(n, o.seconds, out);
  return Status::Ok();
}

}  // namespace ldpgraph
