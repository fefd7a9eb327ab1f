// `ldpgraph bench perturb`: the SDK's DPRR against a plain per-bit
// implementation (what the reference code does: one coin per bit, O(n)).
#ifndef LDPGRAPH_DAEMON_BENCH_PERTURB_BENCH_H_
#define LDPGRAPH_DAEMON_BENCH_PERTURB_BENCH_H_

#include <cstdint>
#include <ostream>

#include "ldpgraph/status.h"

namespace ldpgraph {

struct PerturbBenchOptions {
  std::uint32_t users = 1000000;  // n
  std::uint32_t degree = 100;
  double epsilon = 1.0;
  std::uint64_t reports = 200000;        // timed SDK reports
  std::uint64_t baseline_reports = 50;  // timed per-bit reports (each O(n))
};

// Prints key=value lines: per_report_us, per_bit_us, speedup, report_bytes,
// mean_noisy_degree, peak_rss_mb, ...
Status RunPerturbBench(const PerturbBenchOptions& options, std::ostream& out);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_BENCH_PERTURB_BENCH_H_
