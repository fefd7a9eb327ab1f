#include "bench/gemm_bench.h"

#include <vector>

#include "bench/cpu_rate.h"
#include "engine/kernels/kernel_table.h"
#include "engine/tall_gemm.h"

namespace ldpgraph {
namespace {

constexpr std::int64_t kWidth = 64;  // the GIN's hidden size


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
  return Status::Ok();
}

}  // namespace ldpgraph
