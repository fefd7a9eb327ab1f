// `ldpgraph bench gw`: what all pairwise GW of a dataset costs, and how a
// pair's cost grows with its graphs' sizes, without computing every pair
// (PROTEINS has 619,128). Solves `pairs` uniformly random pairs on
// `threads` threads as `ldpgraph gw` solves every pair (fused with the node
// tags, product start and swap moves): the sample's wall time times
// all pairs / sampled pairs predicts the whole run's (an unbiased sample).
// Each pair's own time, fitted as seconds = a (n m)^b by least squares on
// the logarithms, tells how a pair's cost grows with the graphs' sizes. On
// MUTAG the prediction can be checked against `ldpgraph gw`'s gw_seconds.
#ifndef LDPGRAPH_DAEMON_BENCH_GW_BENCH_H_
#define LDPGRAPH_DAEMON_BENCH_GW_BENCH_H_

#include <cstdint>
#include <ostream>
#include <string>

#include "ldpgraph/status.h"

namespace ldpgraph {

struct GwBenchOptions {
  std::string dataset;
  int pairs = 2000;
  int threads = 2;  // of the predicted whole run
  std::uint64_t seed = 0;
};

// Prints graphs=, all_pairs=, sampled_pairs=, growth_exponent= (b, in n m),
// then per size bucket (n m up to 100, 400, 1600, ...) mean_nodes= and
// ms_per_pair=, sample_seconds= and predicted_all_pairs_seconds=. Errors: the dataset's,
// kInvalidArgument for fewer than 2 graphs or pairs < 10.
Status RunGwBench(const GwBenchOptions& options, std::ostream& out);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_BENCH_GW_BENCH_H_
