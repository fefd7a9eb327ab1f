// ldpgraph experiment linkldp (issue 25): node classification when every
// user reports her friend list under edge LDP and the server denoises it.
// For each model (GCN, GraphSAGE), features and labels setting ("true", or
// "private": multi-bit features and RR labels at their epsilons, LPGNN's
// pipeline with Drop), edge epsilon and split, one row per method:
//   mlp          no edges (the edge-free bar)
//   nonprivate   the true graph
//   dprr, rr     the raw reported rows (DPRR; RR with the whole budget)
//   blink-hard, blink-soft, blink-hybrid
//                Blink: RR with degree reports, posterior under the
//                degree (beta-model) prior, its three graphs
//   ours-soft, ours-hybrid
//                the same reports, posterior under the learned prior
//                (learned_prior.h: a first model's classes and feature
//                similarity), soft or hybrid graph
//   ours         whichever of ours-soft, ours-hybrid and mlp validates best
// The noise is seeded from the setting and split (reproducible). Rows in
// DIR/results.csv:
//   dataset,model,features,edge_epsilon,method,split,accuracy,val_accuracy,edges,seconds
#ifndef LDPGRAPH_DAEMON_EXPERIMENTS_LINKLDP_EXPERIMENT_H_
#define LDPGRAPH_DAEMON_EXPERIMENTS_LINKLDP_EXPERIMENT_H_

#include <string>
#include <vector>

#include "dataset/graph_dataset.h"

namespace ldpgraph {

struct LinkLdpExperimentOptions {
  std::vector<std::string> models = {"gcn", "sage"};
  std::vector<std::string> methods = {"mlp",        "nonprivate",   "dprr",      "rr",          "blink-hard",
                                      "blink-soft", "blink-hybrid", "ours-soft", "ours-hybrid", "ours"};
  std::vector<double> edge_epsilons = {1, 2, 4, 5, 8};
  std::vector<std::string> feature_settings = {"true", "private"};
  double feature_epsilon = 1;  // "private": multi-bit features
  double label_epsilon = 1;    // "private": RR labels, Drop
  // Soft graphs: pairs kept per user / her degree estimate; 0: as the
  // denoiser's budget allows (linkldp/link_denoiser.h).
  double soft_degree_multiple = 0;
  int splits = 10;
  std::string out_dir;
  int jobs = 1;
};

// The method names, for messages.
extern const char* const kLinkLdpMethods;

// Errors: kInvalidArgument for an unknown model, method or setting, a
// non-positive epsilon, splits < 1, a dataset without features and labels;
// the first failing run's error otherwise.
Status RunLinkLdpExperiment(const GraphDataset& dataset, const LinkLdpExperimentOptions& options);

// Rewrites DIR/summary.csv and the charts from DIR/results.csv.
Status SummariseLinkLdpExperiment(const std::string& out_dir);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_EXPERIMENTS_LINKLDP_EXPERIMENT_H_
