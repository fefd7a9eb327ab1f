// GW-LDP's node embeddings (seed 000, section 3 and Table 1): a shared graph
// classifier, GIN (5 layers, 64 hidden units) or GCN (2 layers, 16 hidden),
// trained by FedAvg over clients that each hold some of the graphs (split
// by a Dirichlet distribution over the classes), then every graph's node
// embeddings taken "after the softmax": each node's class scores (what it
// contributes to its graph's scores; with the mean readout a graph's scores
// are their mean) through a softmax, so every entry lies in [0, 1], the
// range the multi-bit encoder needs. The last class's column is left out:
// it is one minus the others, and under LDP every column sent costs budget
// (with 2 classes a node sends one number, at 4 times less noise variance
// than two; GW on the rest is GW on all of them, scaled).
//
// Only the training graphs' labels are used (each client holds out 20% of
// its graphs for validation; the round with the lowest validation loss is
// kept), so the test graphs' embeddings are what a client that took no part
// in training would send.
#ifndef LDPGRAPH_DAEMON_GW_FEDERATED_EMBEDDINGS_H_
#define LDPGRAPH_DAEMON_GW_FEDERATED_EMBEDDINGS_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "dataset/graph_dataset.h"

namespace ldpgraph {

enum class EmbeddingModel { kGin, kGcn };

// Errors: kInvalidArgument for a name other than gin or gcn.
Result<EmbeddingModel> ParseEmbeddingModel(const std::string& name);

struct FederatedEmbeddingOptions {
  EmbeddingModel model = EmbeddingModel::kGin;
  int clients = 10;
  double dirichlet_alpha = 0.5;
  int rounds = 100;
  int local_epochs = 1;
  int batch_size = 32;
  float lr = 0.01f;
  double val_fraction = 0.2;  // of each client's graphs
  int patience = 20;          // rounds without a better validation loss
  std::uint64_t seed = 0;
  // After every round: the round, the global model's validation loss and accuracy.
  std::function<void(int round, double val_loss, double val_accuracy)> on_round;
};

struct FederatedEmbeddings {
  std::vector<Eigen::MatrixXd> embeddings;  // one per graph: nodes x (classes - 1), in [0, 1]
  int best_round = 0;
  int rounds = 0;
  double val_accuracy = 0;
  double test_accuracy = 0;  // the shared model's own graph predictions on `test`
};

// Trains on the graphs `train` of `dataset` and embeds every graph.
// Node inputs: the one-hot node tags when the dataset has them, else the
// one-hot degree (capped at 127), as the GIN paper does. Errors:
// kInvalidArgument for an index out of range, a dataset without two classes
// or a graph without nodes, bad options (clients < 1, alpha <= 0, rounds,
// local epochs or batch size < 1, val_fraction outside (0, 1)).
Result<FederatedEmbeddings> TrainFederatedEmbeddings(const GraphDataset& dataset,
                                                     const std::vector<std::uint32_t>& train,
                                                     const std::vector<std::uint32_t>& test,
                                                     const FederatedEmbeddingOptions& options);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_GW_FEDERATED_EMBEDDINGS_H_
