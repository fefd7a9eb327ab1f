// The public configuration of one graph, as the daemon serves it at
// GET /v1/graphs/{id}: what every device of the graph needs to randomize.
// Nothing in it is secret.
#ifndef LDPGRAPH_GRAPH_CONFIG_H_
#define LDPGRAPH_GRAPH_CONFIG_H_

#include <cstdint>

#include "ldpgraph/edge_mechanism.h"
#include "ldpgraph/embedding_encoder.h"
#include "ldpgraph/graph_summary.h"
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

// How an embedding graph's owner sends her embeddings.
enum class EmbeddingEncoding : std::uint8_t {
  // Every node's row through the embedding encoder (embedding_encoder.h):
  // n = num_users rows, so the graph's size is public.
  kMultiBit = 0,
  // One cell of a public grid over the pooled embedding and the size
  // (graph_summary.h): the size stays on the device, and num_users is only
  // the configuration's nominal n (any n >= 2; it tells nothing).
  kSummary = 1,
};
const char* EmbeddingEncodingName(EmbeddingEncoding encoding);  // "multibit", "summary"

// GW-LDP (seed 000): the graph is one client's whole graph, whose owner
// sends a single report of her n x dims node embeddings at epsilon for the
// whole report. Nobody sends edges or features to such a graph (its edge
// policy is ignored); a label policy, if any, randomizes the graph's own
// class.
struct EmbeddingPolicy {
  bool enabled = false;
  std::uint32_t dims = 2;
  double epsilon = 1.0;
  EmbeddingEncoding encoding = EmbeddingEncoding::kMultiBit;
  // The summary's grid (kSummary only): bins per column and for the size,
  // and the public size range it covers (graph_summary.h).
  std::uint32_t value_bins = 4, size_bins = 4;
  std::uint32_t min_nodes = 1, max_nodes = 1024;

  // The multi-bit encoder's parameters for a graph of `nodes` nodes (the
  // configuration's num_users).
  EmbeddingParams RowsParams(std::uint32_t nodes) const;
  // The summary encoder's parameters (range [0, 1], as every embedding entry's).
  GraphSummaryParams SummaryParams() const;
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
