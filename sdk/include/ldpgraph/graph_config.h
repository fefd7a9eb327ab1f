// The public configuration of one graph, as the daemon serves it at
// GET /v1/graphs/{id}: what every device of the graph needs to randomize.
// Nothing in it is secret.
#ifndef LDPGRAPH_GRAPH_CONFIG_H_
#define LDPGRAPH_GRAPH_CONFIG_H_

#include <cstdint>

#include "ldpgraph/edge_mechanism.h"
#include "ldpgraph/multibit.h"
#include "ldpgraph/status.h"

namespace ldpgraph {

struct FeaturePolicy {
  bool enabled = false;
  MultiBitParams params;
};

struct LabelPolicy {
  bool enabled = false;
  std::uint32_t classes = 2;
  double epsilon = 1.0;
};

// GW-LDP (seed 000): the graph is one client's whole graph, whose owner
// sends a single report, her n x dims node-embedding matrix through the
// embedding encoder (embedding_encoder.h) at epsilon for the whole matrix;
// n is the graph's number of nodes. Nobody sends edges or features to such
// a graph (its edge policy is ignored); a label policy, if any, randomizes
// the graph's own class.
struct EmbeddingPolicy {
  bool enabled = false;
  std::uint32_t dims = 2;
  double epsilon = 1.0;
};

struct GraphConfig {
  std::uint64_t graph_id = 0;
  std::uint32_t num_users = 0;  // n: users are 0 .. n-1
  EdgePolicy edges;
  FeaturePolicy features;
  LabelPolicy label;
  EmbeddingPolicy embedding;

  // Checks every field by building the mechanisms it names; the errors are theirs.
  Status Validate() const;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_GRAPH_CONFIG_H_
