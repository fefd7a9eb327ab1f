// ldpgraph experiment dprr: the DPRR paper's graph-classification study.
// For every mechanism, epsilon, fraction alpha of non-private users and
// split, every user's list is perturbed by the SDK's own mechanism (as her
// device would), GIN-0 is trained with the paper's protocol, and one row is
// appended to DIR/results.csv:
//   dataset,mechanism,epsilon,alpha,split,accuracy,auc,true_edges,noisy_edges,train_seconds
// Mechanisms: dprr (eq. 8 allocation), dprr-or (the same reports, then the
// server keeps an edge when either end listed the other: post-processing,
// beyond the paper), dprr-disclosed (the same reports, then the server
// takes every edge that touches a non-private user from that user's true
// list: post-processing, beyond the paper), dprr-disclosed-or (both, in that
// order: symmetric, and true on every pair that touches a non-private user),
// dprr-fixed (eps1 = eps/10, the reference code), rr, locallap,
// nonpriv-part, nonpriv-full, and no-edges
// (every user, no friend list: what a server knows without collecting any
// edge; with --node-input size that is each graph's public n, the baseline
// every mechanism has to beat to be worth its privacy cost).
// Split s seeds the 75/10/15 split, the model and (mixed with the setting)
// the perturbation, so every number can be reproduced. nonpriv-full and
// no-edges do not depend on epsilon or alpha and nonpriv-part not on
// epsilon: each is trained once per split (training is deterministic) and
// its row is written for every setting, as the reference line of each plot.
// At alpha 0 dprr-disclosed is dprr and dprr-disclosed-or is dprr-or: one
// training writes the rows of both.
#ifndef LDPGRAPH_DAEMON_EXPERIMENTS_DPRR_EXPERIMENT_H_
#define LDPGRAPH_DAEMON_EXPERIMENTS_DPRR_EXPERIMENT_H_

#include <string>
#include <vector>

#include "dataset/graph_dataset.h"
#include "models/gin.h"
#include "train/graph_trainer.h"

namespace ldpgraph {

struct DprrExperimentOptions {
  std::vector<std::string> mechanisms = {"dprr", "rr", "locallap", "nonpriv-part", "nonpriv-full"};
  std::vector<double> epsilons = {1.0};
  std::vector<double> alphas = {0.0};
  int splits = 3;
  std::string out_dir;
  GinConfig model;
  GraphTrainOptions train;
  int jobs = 1;  // runs side by side
  // Other studies' folders whose results.csv rows for the same settings are
  // copied instead of retrained (the REDDIT studies share many settings).
  // They must have been run with the same training options: a run's seeds
  // depend only on its setting and split, so the row is the one this study
  // would train (to the last digit when the runs had as many threads each).
  // A row serves every setting of its training: nonpriv-full and no-edges
  // are found at any epsilon and alpha, dprr at alpha 0 is dprr-disclosed's
  // row (and dprr-or dprr-disclosed-or's).
  std::vector<std::string> reuse_dirs;
};

// The mechanisms' names, for usage messages.
extern const char* const kDprrExperimentMechanisms;

// Errors: kInvalidArgument for an unknown mechanism, epsilon <= 0, alpha
// outside [0, 1] or no splits (before any work); the first failing run's
// error otherwise (rows already written stay).
Status RunDprrExperiment(const GraphDataset& dataset, const DprrExperimentOptions& options);

// Rewrites DIR/summary.csv and the plots from DIR/results.csv.
Status SummariseDprrExperiment(const std::string& out_dir);

// The header of the study's results.csv.
const std::vector<std::string>& DprrResultsColumns();

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_EXPERIMENTS_DPRR_EXPERIMENT_H_
