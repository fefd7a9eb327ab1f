// `ldpgraph bench roofline`: how close each hot kernel of the engine comes
// to what this machine allows, all measured in one run.
//   1. The machine's limits (bench/machine_limits.h).
//   2. An epoch of each model kind, profiled by tape operation
//      (bench/epoch_profiles.h), on a generated social graph of `nodes`
//      users (a stochastic block model, 4 classes, mean degree `degree`,
//      `features` bag-of-words dimensions) and a generated dataset of
//      `graphs` REDDIT-BINARY-sized graphs for the GIN.
//   3. Each hot kernel at those shapes (bench/roofline_kernels.h): its
//      arithmetic intensity, its bound, its time, the fraction of the bound
//      it reaches and its share of each epoch.
// Prints key=value lines and writes the roofline chart to `svg`.
#ifndef LDPGRAPH_DAEMON_BENCH_ROOFLINE_BENCH_H_
#define LDPGRAPH_DAEMON_BENCH_ROOFLINE_BENCH_H_

#include <cstdint>
#include <ostream>
#include <string>

#include "ldpgraph/status.h"

namespace ldpgraph {

struct RooflineBenchOptions {
  std::uint32_t nodes = 1000000;
  double degree = 15;
  std::uint32_t features = 500;
  std::uint32_t words = 14;
  std::uint32_t graphs = 1000;  // for the GIN epoch
  int kx = 4;                   // LPGNN's feature KProp steps
  int epochs = 3;               // profiled per model, after one more
  double seconds = 0.5;         // per machine limit and per kernel
  int big_mb = 512;             // the stream and latency buffers
  int threads = 0;              // 0: all cores
  std::string svg = "roofline.svg";
  std::uint64_t seed = 1;
};

Status RunRooflineBench(const RooflineBenchOptions& options, std::ostream& out);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_BENCH_ROOFLINE_BENCH_H_
