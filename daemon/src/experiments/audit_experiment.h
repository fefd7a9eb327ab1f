// ldpgraph experiment audit (issue 52): do the product's privacy claims hold
// against attacks on what it releases? Each split plays the edge-inclusion
// game (audit/edge_game.h) on the dataset's graph: target edges, a matching,
// each kept or removed by a fair coin before anything private runs. Then
// every system runs on the game's graph and its release is attacked:
//   gcn      non-private GCN: link stealing (lsa), LinkTeller, membership (mia)
//   mlp      the same GCN on no edges at all (reads no edge: the 1/2 control)
//   dprr, rr every user's reported row (edge LDP at epsilon): the two
//            reports of a target, counted ("report")
//   blink    the denoised graph's posterior of the target (degree prior)
//   ours     the same under the learned prior
//   gap-edp  GAP at edge level: lsa on its predictions
//   gap-ndp  GAP at node level: lsa, and mia on its training users
//   mlp-dp   the edge-free MLP trained by DP-SGD: mia
// Each attack's AUC (kept over removed targets; members over test users)
// stands next to the largest AUC its guarantee allows (audit/auc_bounds.h):
// edge LDP reports every edge twice (2 epsilon); GAP-EDP's (epsilon, delta)
// is per edge; GAP-NDP's is per node, so per edge by group privacy of two
// steps; membership of one user's label under node-level DP is one step.
// Noise is seeded from the setting and split (reproducible, not secret).
// One row per attack in DIR/results.csv:
//   dataset,system,attack,epsilon,split,auc,auc_low,auc_high,bound,bound_epsilon,positives,negatives,seconds
// auc_low and auc_high: the AUC's 95% interval; the claim is refuted where
// auc_low exceeds bound.
#ifndef LDPGRAPH_DAEMON_EXPERIMENTS_AUDIT_EXPERIMENT_H_
#define LDPGRAPH_DAEMON_EXPERIMENTS_AUDIT_EXPERIMENT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "dataset/graph_dataset.h"
#include "ldpgraph/status.h"

namespace ldpgraph {

struct AuditExperimentOptions {
  std::vector<std::string> systems = {"gcn", "mlp", "dprr", "rr", "blink", "ours", "gap-edp", "gap-ndp", "mlp-dp"};
  std::vector<double> epsilons = {0.5, 1, 2, 4, 8};  // of the private systems
  int splits = 3;
  std::uint32_t targets = 1000;  // target edges per game
  int epochs = 100;              // GAP's encoder (and the DP-SGD MLP's)
  std::string out_dir;
  int jobs = 1;
};

extern const char* const kAuditSystems;

struct AuditVerdict {
  std::size_t rows = 0;
  std::vector<std::string> refuted;  // "system attack epsilon split: auc_low > bound"
};

// Errors: kInvalidArgument for an unknown system, a non-positive or
// infinite epsilon, splits < 1, fewer than 2 targets, a dataset without
// one graph with node features and labels; the first failing run's error
// otherwise. The verdict covers every row in DIR/results.csv.
Result<AuditVerdict> RunAuditExperiment(const GraphDataset& dataset, const AuditExperimentOptions& options);

// Rewrites DIR/summary.csv and the charts from DIR/results.csv.
Status SummariseAuditExperiment(const std::string& out_dir);

// The verdict on every row of DIR/results.csv.
Result<AuditVerdict> JudgeAuditExperiment(const std::string& out_dir);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_EXPERIMENTS_AUDIT_EXPERIMENT_H_
