// GW (or fused GW, when the graphs carry node features) between every pair
// of a set of graphs, on several threads, with a progress line: the
// distance matrix the SVM, k-NN and clustering work on.
#ifndef LDPGRAPH_DAEMON_GW_PAIRWISE_GW_H_
#define LDPGRAPH_DAEMON_GW_PAIRWISE_GW_H_

#include <functional>
#include <vector>

#include "gw/gromov_wasserstein.h"
#include "gw/graph_space.h"

namespace ldpgraph {

struct PairwiseGwOptions {
  double alpha = 0.5;  // fused GW's weight of the structure (graphs with features only)
  int threads = 2;
  GwOptions gw;
  // Called twice a second from a thread of its own, and once at the end:
  // pairs done, pairs in all.
  std::function<void(std::size_t done, std::size_t total)> progress;
};

// (F)GW between two spaces as PairwiseGw solves each pair: fused, weighing
// the structure by `alpha`, when they carry node features; plain GW
// otherwise. Errors: GromovWasserstein's.
Result<GwResult> SpaceGw(const GraphSpace& a, const GraphSpace& b, double alpha, const GwOptions& options);

// Symmetric, zero diagonal. Errors: GromovWasserstein's for the first pair
// that fails (naming the pair), kInvalidArgument when some graphs have
// features and others not, or threads < 1.
Result<Eigen::MatrixXd> PairwiseGw(const std::vector<GraphSpace>& graphs, const PairwiseGwOptions& options);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_GW_PAIRWISE_GW_H_
