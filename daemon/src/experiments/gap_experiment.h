// ldpgraph experiment gap: what a node classifier released under edge-level
// DP (GAP-EDP) costs in accuracy, against the same split's edge-free MLP
// (GAP's encoder with its softmax head) and non-private GCN and GraphSAGE.
// For every epsilon and split one GAP training (epsilon inf: no noise); the
// MLP, GCN and GraphSAGE rows are edge epsilon inf (the MLP uses no edges at
// all). One row per model and run in DIR/results.csv:
//   dataset,model,epsilon,split,accuracy,noise_multiplier,seconds
#ifndef LDPGRAPH_DAEMON_EXPERIMENTS_GAP_EXPERIMENT_H_
#define LDPGRAPH_DAEMON_EXPERIMENTS_GAP_EXPERIMENT_H_

#include <limits>
#include <string>
#include <vector>

#include "dataset/graph_dataset.h"

namespace ldpgraph {

struct GapExperimentOptions {
  std::vector<double> epsilons = {0.5, 1, 2, 4, 8, std::numeric_limits<double>::infinity()};
  int splits = 5;
  int hops = 2;
  int epochs = 100;  // each of GAP's two trainings
  std::string out_dir;
  int jobs = 1;
};

// Errors: kInvalidArgument for an empty or non-positive epsilon list, splits
// or hops below 1, a dataset without node features and labels; the first
// failing run's error otherwise.
Status RunGapExperiment(const GraphDataset& dataset, const GapExperimentOptions& options);

// Rewrites DIR/summary.csv and the chart from DIR/results.csv.
Status SummariseGapExperiment(const std::string& out_dir);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_EXPERIMENTS_GAP_EXPERIMENT_H_
