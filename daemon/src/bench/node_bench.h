// `ldpgraph bench node`: seconds per full-batch training epoch of a node
// model (GCN or GraphSAGE, LPGNN's shape: 2 layers, hidden 16) on a CSV node
// dataset's 50% split, as tests/bench/torch_gcn.py measures it: one training
// step and one evaluation of the validation loss per epoch.
#ifndef LDPGRAPH_DAEMON_BENCH_NODE_BENCH_H_
#define LDPGRAPH_DAEMON_BENCH_NODE_BENCH_H_

#include <ostream>
#include <string>

#include "ldpgraph/status.h"

namespace ldpgraph {

struct NodeBenchOptions {
  std::string dataset;
  std::string model = "gcn";  // or "sage"
  int epochs = 20;
  int hidden = 16;
  int threads = 0;  // 0: all cores
};

// Prints load_seconds=, nodes=, edges=, features=, feature_nonzeros=,
// feature_storage=sparse|dense, feature_mb=, epoch_seconds= (median),
// epoch_seconds_min=, peak_rss_mb=, ...
Status RunNodeBench(const NodeBenchOptions& options, std::ostream& out);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_BENCH_NODE_BENCH_H_
