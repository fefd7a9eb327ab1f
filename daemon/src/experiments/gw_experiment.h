// ldpgraph experiment gw (issue 23): the GW-LDP paper's Table 1 rows and its
// accuracy against epsilon, on one graph-classification dataset per run
// (rows keyed by dataset, so MUTAG, PROTEINS and IMDB-BINARY share a
// results file). Methods (gw/gw_classification.h):
//   adjacency  fused GW on the adjacency matrix and node tags (GW on A / FGW on A, X);
//   gin, gcn   fused GW on the node embeddings of a GIN / GCN trained by
//              FedAvg over Dirichlet clients; epsilon inf: as they are (H),
//              finite: each graph's matrix LDP-encoded at epsilon (H*);
//   blind      the control: constant embeddings LDP-encoded, which tell the
//              server each graph's size and nothing else.
//   gin-summary, gcn-summary, blind-summary: the same embeddings sent by the
//              summary encoder (sdk graph_summary.h), one grid cell a graph,
//              its size included in the epsilon; epsilon inf: the exact
//              (pooled embedding, log size) point (blind-summary: the exact
//              size alone, the most any size-only control can tell).
// Rows in DIR/results.csv, one per fold:
//   dataset,method,epsilon,fold,svm_accuracy,knn_accuracy,model_accuracy,spectral_nmi,kmedoids_nmi,c,gamma,gw_seconds
// model_accuracy: the federated classifier's own test accuracy (empty
// without one); spectral_nmi, kmedoids_nmi: every graph clustered on the
// fold's distances, scored against the labels.
#ifndef LDPGRAPH_DAEMON_EXPERIMENTS_GW_EXPERIMENT_H_
#define LDPGRAPH_DAEMON_EXPERIMENTS_GW_EXPERIMENT_H_

#include <cmath>
#include <string>
#include <vector>

#include "dataset/graph_dataset.h"
#include "gw/gw_classification.h"

namespace ldpgraph {

struct GwExperimentOptions {
  std::vector<std::string> methods = {"adjacency", "gin", "gcn", "blind"};
  // gin and gcn run at each; blind at the finite ones; adjacency at inf only.
  // The -summary methods run at each.
  std::vector<double> epsilons = {0.1, 1, 8, 64, 512, INFINITY};
  std::string folds_dir;  // empty: DATASET_DIR/10fold_idx, or 10 stratified folds
  GwClassificationOptions classification;  // embeddings and epsilon are set per run
  std::string out_dir;
};

// Errors: kInvalidArgument for an unknown method, an epsilon that is not
// positive, a dataset without two labelled graphs; the first failing run's
// error otherwise.
Status RunGwExperiment(const std::string& dataset_path, const GraphDataset& dataset, const GwExperimentOptions& options);

Status SummariseGwExperiment(const std::string& out_dir);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_EXPERIMENTS_GW_EXPERIMENT_H_
