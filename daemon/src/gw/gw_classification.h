// GW-LDP's graph classification end to end, shared by `ldpgraph gw` and
// `ldpgraph experiment gw`: the graphs' spaces (their adjacency or hop
// distances, or node embeddings from a federated GIN/GCN, optionally
// LDP-encoded), every pair's (fused) GW, then per fold an SVM on
// exp(-gamma GW) and k-NN, and clustering of all graphs. Embeddings are trained per fold on that fold's
// training graphs only, so each fold has its own distance matrix.
#ifndef LDPGRAPH_DAEMON_GW_GW_CLASSIFICATION_H_
#define LDPGRAPH_DAEMON_GW_GW_CLASSIFICATION_H_

#include <functional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "dataset/graph_dataset.h"
#include "gw/federated_embeddings.h"
#include "gw/graph_folds.h"
#include "gw/kernel_svm.h"
#include "gw/pairwise_gw.h"

namespace ldpgraph {

struct GwFoldResult;

struct GwClassificationOptions {
  // adjacency, shortest-path, gin, gcn, or blind: a control whose nodes
  // all hold the same embedding (0.5 per column), so that its LDP encoding
  // tells the server nothing but each graph's number of nodes; what it
  // classifies right, the graph sizes alone give away.
  std::string embeddings = "adjacency";
  // Embeddings only: the whole-matrix budget of each graph's encoder; 0 (or
  // infinity): the embeddings as they are, no LDP.
  double epsilon = 0;
  // How each graph's embeddings reach the server: "multibit" (the paper's
  // encoder: every node's row at epsilon / n, n rows) or "summary" (sdk
  // graph_summary.h: one cell of a grid over the pooled embedding and the
  // size, denoised on the server, gw/private_summary.h). Without LDP, the
  // summary is the exact point (pooled embedding, log size); blind's is then
  // the graph's size alone, exact.
  std::string encoder = "multibit";
  // summary: the public size range its grid covers (0: the 5th and 95th
  // percentiles of the dataset's sizes, as an operator who knows the
  // population would set it; smaller and larger graphs are clamped into it)
  // and its bins (0: GraphSummaryParams::ForEpsilon's).
  std::uint32_t summary_min_nodes = 0, summary_max_nodes = 0;
  std::uint32_t summary_value_bins = 0, summary_size_bins = 0;
  FederatedEmbeddingOptions federated;
  PairwiseGwOptions pairwise;
  int knn = 5;
  int inner_folds = 5;
  SvmGrid svm_grid = SvmGrid::Paper();
  // Also k-means in GW space with barycentres as centres (gw_kmeans.h), the
  // paper's clustering; it solves GW for every graph several times a round.
  bool kmeans = false;
  // Trains the embedding model on every graph, each fold's test graphs and
  // their labels included, so that test embeddings carry their labels. Not
  // a valid accuracy: a diagnostic of how the paper's figures could arise.
  bool train_on_test_graphs = false;
  std::uint64_t seed = 0;  // the encoders' randomness
  // One line of news at a time (a fold's embeddings trained, its SVM
  // chosen, ...).
  std::function<void(const std::string&)> log;
  // The SVM's model selection in fold `fold` (from 0): grid points done of
  // `total`, one call at a time (it takes most of a run on noisy embeddings).
  std::function<void(std::size_t fold, std::size_t done, std::size_t total)> svm_progress;
  // Folds to leave out, e.g. recorded by an earlier, interrupted run: not
  // trained, compared or scored (their results stay default, their
  // distance matrices empty). A fold's result does not depend on the
  // others (its seeds are its own), so a run resumed fold by fold gives
  // the same numbers as one run through.
  std::function<bool(std::size_t fold)> skip_fold;
  // Called with each fold's result as soon as it is scored, in fold order;
  // an error ends the run with it.
  std::function<Status(std::size_t fold, const GwFoldResult&)> fold_scored;
};

struct GwFoldResult {
  double svm_accuracy = 0, c = 0, gamma = 0;
  double knn_accuracy = 0;
  double model_accuracy = -1;  // the federated model's own test accuracy; -1 without one
  double gw_seconds = 0;  // its matrix's; one matrix for every fold: its time over the folds
  double svm_seconds = 0;  // the SVM's model selection and final fit
  // Every graph clustered into as many groups as classes, on the fold's
  // distance matrix (unsupervised: the labels only score it), by NMI.
  double spectral_nmi = 0, kmedoids_nmi = 0;
  double kmeans_nmi = -1;  // -1: not asked for
};

struct GwClassification {
  std::vector<GwFoldResult> folds;
  // One matrix for the fixed spaces, one per fold for embeddings.
  std::vector<Eigen::MatrixXd> distances;
  double gw_seconds = 0;  // all pairwise GW together
  bool fused = false;
};

// Errors: kInvalidArgument for an unknown --embeddings or encoder name, a
// negative or NaN epsilon, epsilon or the summary encoder with adjacency or
// shortest-path, blind without a finite epsilon, summary settings with the
// multi-bit encoder or a grid GraphSummaryParams refuses, no folds, and the
// errors of the parts.
Result<GwClassification> ClassifyByGw(const GraphDataset& dataset, const std::vector<GraphFold>& folds,
                                      const GwClassificationOptions& options);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_GW_GW_CLASSIFICATION_H_
