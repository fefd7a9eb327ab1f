#include "bench/gemm_bench.h"

#if defined(__AVX512BF16__)
#include <immintrin.h>
#endif

#include <vector>

#include "bench/cpu_rate.h"
#include "engine/kernels/kernel_table.h"
#include "engine/tall_gemm.h"

namespace ldpgraph {
namespace {

constexpr std::int64_t kWidth = 64;  // the GIN's hidden size

#if defined(__AVX512BF16__)
constexpr int kChains = KernelTable::kFmaChains;  // as FmaPeakPerCore's chains
constexpr std::int64_t kSteps = 1 << 20;

// The same chains with bfloat16 pair dot products (VDPBF16PS: 16 lanes, each
// adding two products of bfloat16 pairs to a float): what the Linear layers
// could reach with bfloat16 inputs and float sums.
constexpr double kBf16FlopsPerDot = 16 * 2 * 2;  // lanes x products per lane x (multiply, add)
float Bf16DotChains(float start) {
  __m512 acc[kChains];
  for (int j = 0; j < kChains; ++j) acc[j] = _mm512_set1_ps(start + static_cast<float>(j));
  const __m512 small = _mm512_set1_ps(1e-6f * start);
  const __m512bh pairs = _mm512_cvtne2ps_pbh(small, small);
  for (std::int64_t i = 0; i < kSteps; ++i) {
#pragma GCC unroll 12
    for (int j = 0; j < kChains; ++j) acc[j] = _mm512_dpbf16_ps(acc[j], pairs, pairs);
  }
  float sum = 0;
  for (int j = 0; j < kChains; ++j) sum += _mm512_reduce_add_ps(acc[j]);
  return sum;
}
#endif

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
#if defined(__AVX512BF16__)
  volatile float start = 1, sink = 0;
  const double bf16 = Rate(kBf16FlopsPerDot * kChains * static_cast<double>(kSteps), o.seconds,
                           [&] { sink = sink + Bf16DotChains(start); });
  out << "bf16_dot_peak_gflops=" << bf16 / 1e9 << "\nbf16_over_fma_peak=" << bf16 / peak << "\n";
#else
  out << "bf16_dot_peak_gflops=unsupported\n";  // the build's -march has no AVX512_BF16
#endif
  return Status::Ok();
}

}  // namespace ldpgraph
