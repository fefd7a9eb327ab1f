#include "bench/cpu_rate.h"

#include <time.h>

#include "engine/kernels/kernel_table.h"

namespace ldpgraph {

double ThreadCpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

double FmaPeakPerCore(double seconds) {
  constexpr int kChains = KernelTable::kFmaChains;
  constexpr std::int64_t kSteps = 1 << 20;
  volatile float start = 1, sink = 0;
  const KernelTable& kernels = Kernels();
  return Rate(2.0 * kernels.float_lanes * kChains * static_cast<double>(kSteps), seconds,
              [&] { sink = sink + kernels.fma_chains(start, kSteps); });
}

double Bf16TilePeakPerCore(double seconds) {
  const Bf16KernelTable* tiles = Bf16Kernels();
  if (tiles == nullptr) return 0;
  constexpr std::int64_t kSteps = 1 << 16;
  volatile float sink = 0;
  return Rate(4.0 * 2 * 16 * 16 * 32 * static_cast<double>(kSteps), seconds,
              [&] { sink = sink + tiles->tile_chains(kSteps); });
}

}  // namespace ldpgraph
