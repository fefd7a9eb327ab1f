// The limits a kernel of the engine can run into on this machine, measured
// in the same run as the kernels they bound (these machines are shared and
// noisy: a figure measured yesterday is not a bound for today's kernel).
//   - multiply-add peak: the kernels' own independent FMA chains, on one
//     thread and on every engine thread at once;
//   - stream bandwidth: a sum over a buffer far past the caches (reads), and
//     an in-place update of it (read-modify-write, both directions counted);
//   - dropout's draws on one thread: its masks mixed from each element's
//     position (engine/dropout_draws.h), integer multiplies rather than
//     multiply-adds;
//   - libm's exp and log on one thread: the softmax keeps the scalar exp,
//     through which every recorded GIN result was trained (engine/tape.cc),
//     and the cross-entropy takes a log for each labelled row;
//   - random-access latency: a chase of dependent loads around a random
//     cycle of cache lines (one thread: the cost of a load nothing can hide);
//   - independent gathers: loads of whole random cache lines named by a
//     sequential index stream, as a neighbour sum reads its rows, on every
//     engine thread, for buffers from L2-sized to far past the last cache
//     (the cost of a line depends on where it lives).
#ifndef LDPGRAPH_DAEMON_BENCH_MACHINE_LIMITS_H_
#define LDPGRAPH_DAEMON_BENCH_MACHINE_LIMITS_H_

#include <cstdint>
#include <vector>

namespace ldpgraph {

struct GatherRate {
  double footprint_bytes = 0;  // the buffer the lines come from
  double ns_per_line = 0;      // wall time per line, all threads together
};

// Sequential passes over one buffer, all threads together.
struct StreamRate {
  double footprint_bytes = 0;
  double read_bytes_per_second = 0;
  double rmw_bytes_per_second = 0;  // read and written bytes together
};

struct MachineLimits {
  int threads = 1;
  double fma_flops_core = 0;  // flops per second, a multiply-add counting 2
  double fma_flops_all = 0;
  double latency_ns = 0;             // one dependent load, far past the caches
  double dropout_draws_per_second = 0;  // DropoutDraws::Row's masks, one thread
  double libm_exps_per_second = 0;     // std::exp(float), one thread
  double libm_logs_per_second = 0;     // std::log(float), one thread
  // By footprint, increasing from L2-sized to the big buffer (the last:
  // what a kernel whose data cannot stay in cache gets).
  std::vector<StreamRate> streams;
  std::vector<GatherRate> gathers;

  // The rates for a kernel whose data takes `footprint_bytes`: interpolated
  // in log(footprint) between the measured sizes, and the nearest measured
  // size beyond them.
  double ReadBytesPerSecond(double footprint_bytes) const;
  double RmwBytesPerSecond(double footprint_bytes) const;
  double GatherNsPerLine(double footprint_bytes) const;
};

// Measures every limit on `threads` threads, each for about `seconds`, with
// buffers of `big_bytes` for the streams and the latency chase.
MachineLimits MeasureMachineLimits(int threads, double seconds, std::int64_t big_bytes);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_BENCH_MACHINE_LIMITS_H_
