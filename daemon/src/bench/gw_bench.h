// `ldpgraph bench gw`: what all pairwise GW of a dataset costs, and how a
// pair's cost grows with its graphs' sizes, without computing every pair
// (PROTEINS has 618,828). Solves `pairs` random pairs on `threads` threads
// as `ldpgraph gw` solves every pair (fused with the node tags, product
// start and swap moves), stratified by size: every pair falls in a bucket
// of n m (up to 100, 400, 1600, ...), counted exactly from the graphs'
// sizes; half the sample is drawn in proportion to the buckets' pairs and
// half evenly across them (uniformly within a bucket, with replacement), so
// that the few pairs of the largest graphs, which can take a fifth of the
// whole run (PROTEINS), are sampled too. The prediction is each bucket's
// mean time times its pair count, summed, at the sample's own parallel
// speed-up. A uniform sample was unbiased but missed that tail: it
// predicted 490 s for a PROTEINS run that took 816 s. Each pair's own
// time, fitted as seconds = a (n m)^b by least squares on the logarithms,
// tells how a pair's cost grows with the graphs' sizes.
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
// then per size bucket (n m up to 100, 400, 1600, ...) its pairs=,
// sampled=, mean_nodes=, ms_per_pair= and iterations_mean=, then
// sample_seconds= and predicted_all_pairs_seconds=. Errors: the dataset's,
// kInvalidArgument for fewer than 2 graphs or pairs < 10.
Status RunGwBench(const GwBenchOptions& options, std::ostream& out);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_BENCH_GW_BENCH_H_
