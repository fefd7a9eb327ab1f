// Batching many graphs into one block-diagonal sparse system.
//
// Aggregation follows the reports: row u of A is user u's (noisy) list, and
// node u aggregates the users in it, A h, as ALGORITHMS.md and the DPRR paper
// define it ("the sum of adjacent feature vectors is a degree"): with a
// constant input, layer 1 sees each user's reported degree, which DPRR keeps
// close to the true one. (Summing over the users who listed u, A^T h, would
// see the in-degree instead, which under DPRR is mostly noise.) For a
// symmetric graph the two are the same. Each graph's local matrices are built
// once (PreparedGraph); a batch only points at them, so the graphs must
// outlive it.
#ifndef LDPGRAPH_DAEMON_GRAPH_GRAPH_BATCH_H_
#define LDPGRAPH_DAEMON_GRAPH_GRAPH_BATCH_H_

#include <cstdint>
#include <vector>

#include "engine/sparse_matrix.h"
#include "graph/graph_colours.h"
#include "graph/csr_graph.h"

namespace ldpgraph {

enum class Aggregation {
  kSumWithSelf,  // GIN-0: (A + I) h
  kMean,         // mean over the node's list (GraphSAGE), 0 for none
  kGcn,          // D^-1/2 (A + I) D^-1/2 h, D = list length + 1
  kSymNoSelf,    // D^-1/2 A D^-1/2 h: KProp as LPGNN's reference code does it
};

// One graph's aggregation matrix, its transpose and its node inputs.
struct PreparedGraph {
  SparseMatrix agg;
  SparseMatrix agg_t;
  Matrix inputs;  // num_nodes x input width
  // Its colour classes under GIN's aggregation (graph/graph_colours.h);
  // null for the other aggregations. Found for `inputs` as they were then:
  // a batch checks them against the inputs it is given.
  std::shared_ptr<const GraphColours> colours;
  std::int64_t num_nodes() const { return agg.rows; }
};

// `degree_cap` 0: every node's input is the constant 1; D > 0: one-hot of
// min(row degree, D), the degree the node's user reported. `size_input`
// appends ln(number of nodes) to every node's input: the number of users of
// a graph is public (every device is told n), so it costs no privacy.
PreparedGraph PrepareGraph(const CsrGraph& graph, Aggregation aggregation, int degree_cap = 0,
                           bool size_input = false);
// The width of the node inputs PrepareGraph builds for these choices.
int NodeInputWidth(int degree_cap, bool size_input);

struct GraphBatch {
  BlockDiagonal agg;
  BlockDiagonal agg_t;
  std::vector<std::int64_t> offsets = {0};  // node range of each graph
  std::vector<int> labels;                  // one per graph (-1: unknown)
  Matrix inputs;                            // node inputs, stacked
  std::vector<const GraphColours*> colours;  // one per graph (null: none)
};

// The same for a weighted graph: `weights` holds one weight per row entry of
// `graph` (aligned with graph.targets(); null: every entry 1). A node's
// degree is the sum of its row's weights; a self-loop weighs 1. Used for the
// denoised graphs of link LDP, whose weights are edge probabilities.
PreparedGraph PrepareGraph(const CsrGraph& graph, const std::vector<float>* weights, Aggregation aggregation,
                           int degree_cap = 0, bool size_input = false);

// Stacks the graphs `ids` of `graphs` (labels from `labels`, may be empty).
GraphBatch MakeBatch(const std::vector<PreparedGraph>& graphs, const std::vector<std::uint32_t>& ids,
                     const std::vector<std::uint32_t>& labels);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_GRAPH_GRAPH_BATCH_H_
