// ldpgraph experiment gap: what a node classifier released under edge-level
// DP (GAP-EDP) or node-level DP (GAP-NDP) costs in accuracy, against the
// same split's edge-free MLP (GAP's encoder with its softmax head: "mlp",
// non-private, at epsilon inf; "mlp-dp", trained by DP-SGD with the whole
// budget, at each finite epsilon: the edge-free bar under node-level DP)
// and non-private GCN and GraphSAGE (epsilon inf). For every epsilon, level
// and split two GAP trainings (epsilon inf: no noise): the paper's
// ("gap-edp", "gap-ndp") and ours with the residual classifier ("-res"). The noise is seeded
// from the split: runs are reproducible (and so not secret). One row per
// model and run in DIR/results.csv:
//   dataset,model,epsilon,split,accuracy,noise_multiplier,seconds
#ifndef LDPGRAPH_DAEMON_EXPERIMENTS_GAP_EXPERIMENT_H_
#define LDPGRAPH_DAEMON_EXPERIMENTS_GAP_EXPERIMENT_H_

#include <cstdint>
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
  bool edge_level = true, node_level = true;
  // The systems at each level: "gap" (the paper's classifier and ours, the
  // residual one) and "progap" (gap/progap_pipeline.h).
  std::vector<std::string> models = {"gap"};
  std::uint32_t max_degree = 10;  // node level: D, DP-SGD's expected batch (0: GapOptions' default)
  int batch_size = 0;
  std::string out_dir;
  int jobs = 1;
};

// Errors: kInvalidArgument for an empty or non-positive epsilon list, splits
// or hops below 1, no level, D or batch below 1, a dataset without node
// features and labels; the first failing run's error otherwise.
Status RunGapExperiment(const GraphDataset& dataset, const GapExperimentOptions& options);

// Rewrites DIR/summary.csv and the chart from DIR/results.csv.
Status SummariseGapExperiment(const std::string& out_dir);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_EXPERIMENTS_GAP_EXPERIMENT_H_
