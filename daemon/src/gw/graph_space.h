// A graph as Gromov-Wasserstein compares it: a matrix of distances between
// its nodes (the structure) and, for fused GW, one feature row per node.
//   adjacency      C = A, as the GW-LDP paper's Table 1 ("GW on A");
//   shortest-path  C = hop distances (unreachable pairs: the graph's
//                  diameter + 1), as fused GW's authors use;
//   embedding      C = Euclidean distances between node embeddings (GW on
//                  H or on the LDP-encoded H*).
// Node features are the one-hot node tags (MUTAG's atom types, PROTEINS'
// structure types) when the dataset has them.
#ifndef LDPGRAPH_DAEMON_GW_GRAPH_SPACE_H_
#define LDPGRAPH_DAEMON_GW_GRAPH_SPACE_H_

#include <string>
#include <vector>

#include <Eigen/Core>

#include "dataset/graph_dataset.h"

namespace ldpgraph {

struct GraphSpace {
  Eigen::MatrixXd structure;  // n x n, symmetric
  Eigen::MatrixXd features;   // n x f, or empty
};

enum class GwStructure { kAdjacency, kShortestPath };

// Errors: kInvalidArgument for an unknown name.
Result<GwStructure> ParseGwStructure(const std::string& name);

// One space per graph of `dataset`. Errors: kInvalidArgument naming the
// first graph without nodes.
Result<std::vector<GraphSpace>> GraphSpaces(const GraphDataset& dataset, GwStructure structure);

// Every graph's one-hot node tags (nodes x distinct tags), or nothing when
// the dataset has no tags.
std::vector<Eigen::MatrixXd> OneHotNodeTags(const GraphDataset& dataset);

// The space of node embeddings (one row per node): Euclidean distances as
// the structure, the embeddings themselves as fused GW's node features (a
// shared model puts every graph's embeddings in one space, so nodes of two
// graphs compare directly; the server needs nothing but the embeddings).
GraphSpace EmbeddingSpace(const Eigen::MatrixXd& embeddings);

// Fused GW's feature cost between two graphs: squared Euclidean distances
// between their nodes' feature rows.
Eigen::MatrixXd FeatureCost(const Eigen::MatrixXd& x, const Eigen::MatrixXd& y);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_GW_GRAPH_SPACE_H_
