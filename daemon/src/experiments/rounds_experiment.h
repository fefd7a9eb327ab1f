// ldpgraph experiment rounds (issue 68): accuracy and privacy loss when a
// graph is collected in rounds while its friend lists change.
//
// The true graph changes each round (experiments/friend_churn.h: by default
// 10% of the users change 10% of their friends). Every user's device reports
// each round through her BudgetLedger, memoised (experiments/round_devices.h),
// and for comparison with fresh noise (the naive scheme). Each round a node
// classifier (true features and labels, so only the edges are private) is
// trained, as the daemon's node job trains it, on:
//   true-graph   the round's true friend lists (the bar)
//   memoised     the round's memoised reports
//   fresh        the same lists reported with fresh noise
//   edge-free    no edges (once per split: it does not change over rounds)
// RR with degree is denoised by the learned prior (linkldp/), DPRR trained
// on its rows as reported. One row per (method, round, split) in
// DIR/results.csv:
//   dataset,model,mechanism,edge_epsilon,method,round,split,accuracy,val_accuracy,
//   loss_mean,loss_p99,loss_max,lists_changed,reports_changed
// where the losses are over users, in epsilon (the ledgers' for memoised,
// rounds x epsilon for fresh, inf for the true graph, 0 without edges).
// DIR/by_round.csv has their means and deviations over the splits per
// round, DIR/summary.csv one row per method (rounds_summary.h), and the
// charts accuracy and loss against the round. Prints each setting's figures
// as one line of key=value.
#ifndef LDPGRAPH_DAEMON_EXPERIMENTS_ROUNDS_EXPERIMENT_H_
#define LDPGRAPH_DAEMON_EXPERIMENTS_ROUNDS_EXPERIMENT_H_

#include <string>
#include <vector>

#include "dataset/graph_dataset.h"
#include "experiments/friend_churn.h"

namespace ldpgraph {

struct RoundsExperimentOptions {
  std::vector<std::string> mechanisms = {"rr-degree"};  // rr-degree, dprr
  std::vector<double> edge_epsilons = {4};
  std::string model = "gcn";  // gcn, sage
  int rounds = 20;
  ChurnOptions churn;
  bool fresh = true;  // also train on the naive scheme's reports
  int splits = 3;
  int max_epochs = 500;
  std::string out_dir;
  int jobs = 1;
};

// Errors: kInvalidArgument for an unknown mechanism or model, an epsilon
// that is not positive and finite, rounds outside 1..1000, splits < 1,
// churn fractions outside (0, 1], or a dataset that is not one graph with
// features and labels (before any work); the first failing run's otherwise.
Status RunRoundsExperiment(const GraphDataset& dataset, const RoundsExperimentOptions& options);

// Rewrites DIR/by_round.csv, DIR/summary.csv and the charts from
// DIR/results.csv; `figures`, when given, gets each setting's key=value line.
Status SummariseRoundsExperiment(const std::string& out_dir, std::vector<std::string>* figures = nullptr);

// The header of the study's results.csv.
const std::vector<std::string>& RoundsResultsColumns();

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_EXPERIMENTS_ROUNDS_EXPERIMENT_H_
