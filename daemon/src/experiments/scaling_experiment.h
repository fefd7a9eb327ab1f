// ldpgraph experiment scaling: server time against graph size (the DPRR
// paper's Fig. 9). For each m and n, `graphs` Barabasi-Albert graphs of n
// users (labels alternate, so both classes exist) are perturbed by each
// mechanism; GIN-0 trains `epochs` epochs on 80% of them and classifies the
// rest. One row per (m, n, mechanism) in DIR/results.csv:
//   m,n,mechanism,epsilon,graphs,noisy_edges,perturb_seconds,train_seconds_per_epoch,classify_seconds
// perturb_seconds is every device's work done in one process (LocalLap's is
// quadratic: each user sends n - 1 noisy values). Mechanisms are skipped
// above their size cap (RR's graph is dense: n^2 / 4 edges at epsilon 1).
#ifndef LDPGRAPH_DAEMON_EXPERIMENTS_SCALING_EXPERIMENT_H_
#define LDPGRAPH_DAEMON_EXPERIMENTS_SCALING_EXPERIMENT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "ldpgraph/status.h"

namespace ldpgraph {

struct ScalingExperimentOptions {
  std::vector<std::uint32_t> ms = {3, 5};
  std::vector<std::uint32_t> sizes = {1000, 2000, 3000, 4000, 10000, 30000, 100000};
  std::vector<std::string> mechanisms = {"dprr", "rr", "locallap"};
  double epsilon = 1.0;
  std::uint32_t graphs = 10;
  int epochs = 3;
  std::uint32_t rr_max_nodes = 4000;
  std::uint32_t locallap_max_nodes = 10000;
  std::string out_dir;
};

Status RunScalingExperiment(const ScalingExperimentOptions& options);

// Rewrites DIR/summary.csv and the charts from DIR/results.csv.
Status SummariseScalingExperiment(const std::string& out_dir);

// The header of the study's results.csv.
const std::vector<std::string>& ScalingResultsColumns();

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_EXPERIMENTS_SCALING_EXPERIMENT_H_
