// Arithmetic rates for the benchmarks: floating-point operations per CPU
// second of the calling thread, and the core's peak by the engine's own
// multiply-add chains, so that a figure can be put against what the core can do.
#ifndef LDPGRAPH_DAEMON_BENCH_CPU_RATE_H_
#define LDPGRAPH_DAEMON_BENCH_CPU_RATE_H_

#include <cstdint>

namespace ldpgraph {

double ThreadCpuSeconds();

// Operations per CPU second of `step`, which does `flops` of them, repeated
// (after one warm-up call) until `seconds` of CPU time have passed.
template <typename Step>
double Rate(double flops, double seconds, Step step) {
  step();
  const double start = ThreadCpuSeconds();
  double elapsed = 0;
  std::int64_t reps = 0;
  do {
    step();
    ++reps;
    elapsed = ThreadCpuSeconds() - start;
  } while (elapsed < seconds);
  return flops * static_cast<double>(reps) / elapsed;
}

// One core's float multiply-add peak (flops per second, a multiply-add
// counting 2), measured for `seconds` with the kernels' independent chains.
double FmaPeakPerCore(double seconds);

// The same for bfloat16 products on AMX tiles; 0 where Bf16Kernels() is null.
double Bf16TilePeakPerCore(double seconds);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_BENCH_CPU_RATE_H_
