// ldpgraph experiment lpgnn: node classification with locally private
// features, labels and (beyond LPGNN) edges. For every model, feature
// mechanism and epsilon, label method and epsilon, edge epsilon and split:
//   features   each node's vector through mbm / 1bm / laplace (inf: true features)
//   labels     k-ary randomized response (inf: true labels), learnt by
//              ce (plain cross-entropy), fc (forward correction) or drop
//              (label propagation plus forward correction, LPGNN's Drop);
//              with true labels every method is run once, as ce
//   edges      every user's list through the SDK's DPRR (inf: true edges)
// KProp steps for features (kx) and labels (ky, Drop only) are chosen on the
// validation split, measured against the labels the server has (the noisy
// ones); accuracy is then tested against the true labels. One row per run in
// DIR/results.csv:
//   dataset,model,feature_mechanism,feature_epsilon,label_method,label_epsilon,edge_epsilon,kx,ky,split,accuracy
#ifndef LDPGRAPH_DAEMON_EXPERIMENTS_LPGNN_EXPERIMENT_H_
#define LDPGRAPH_DAEMON_EXPERIMENTS_LPGNN_EXPERIMENT_H_

#include <limits>
#include <string>
#include <vector>

#include "dataset/graph_dataset.h"
#include "train/lpgnn_pipeline.h"
#include "train/node_trainer.h"

namespace ldpgraph {

struct LpgnnExperimentOptions {
  std::vector<std::string> models = {"sage"};
  std::vector<std::string> feature_mechanisms = {"mbm"};
  std::vector<double> feature_epsilons = {std::numeric_limits<double>::infinity()};
  std::vector<std::string> label_methods = {"drop"};
  std::vector<double> label_epsilons = {std::numeric_limits<double>::infinity()};
  std::vector<double> edge_epsilons = {std::numeric_limits<double>::infinity()};
  std::vector<int> kx_choices = {0, 2, 4, 8, 16};
  std::vector<int> ky_choices = {0, 2, 4, 8, 16};
  int splits = 3;
  int hidden = 16;
  float dropout = 0.5f;
  std::string out_dir;
  NodeTrainOptions train;
  // LpgnnOptions' validation reference and which labels Drop propagates.
  ValidationReference validation_reference = ValidationReference::kEstimated;
  bool propagate_validation_labels = true;
  // LpgnnOptions' renumbering of the users; `node_order_from` 0 applies it
  // at any size (the default: TrainLpgnn's own, from 2^18 users).
  NodeOrder node_order = LpgnnOptions().node_order;
  std::int64_t node_order_from = LpgnnOptions().node_order_from;
  int jobs = 1;
};

// Errors: kInvalidArgument for an unknown model, mechanism or method, a
// non-positive epsilon or a dataset without node features and labels (before
// any work); the first failing run's error otherwise.
Status RunLpgnnExperiment(const GraphDataset& dataset, const LpgnnExperimentOptions& options);

// Rewrites DIR/summary.csv and the charts from DIR/results.csv.
Status SummariseLpgnnExperiment(const std::string& out_dir);

// The header of the study's results.csv.
const std::vector<std::string>& LpgnnResultsColumns();

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_EXPERIMENTS_LPGNN_EXPERIMENT_H_
