// GCN and GraphSAGE for node classification, as LPGNN uses them: optional
// KProp (K parameter-free aggregation steps on the inputs, which average the
// noise of rectified features away), then `layers` graph convolutions,
// dropout before each, SELU (or ReLU) between them.
//   GCN:       h' = D^-1/2 (A + I) D^-1/2 h W + b
//   GraphSAGE: h' = h W_root + mean_{u in N(v)} h_u W_neigh + b  (mean aggregator, root weight)
// Each layer aggregates on its narrower side: A (h W) when W narrows h, as
// always for sparse inputs (a 4,714-wide input aggregated before its
// product costs 4714/16 times as much as after). Factored features
// (engine/factored_features.h) go through the first layer's products in
// their factors; their dropout falls on the first products' units.
#ifndef LDPGRAPH_DAEMON_MODELS_NODE_GNN_H_
#define LDPGRAPH_DAEMON_MODELS_NODE_GNN_H_

#include <vector>

#include "engine/layers.h"
#include "engine/node_features.h"
#include "engine/propagated_product_cache.h"
#include "graph/graph_batch.h"

namespace ldpgraph {

enum class NodeGnnKind { kGcn = 2, kSage = 3 };

struct NodeGnnConfig {
  NodeGnnKind kind = NodeGnnKind::kSage;
  int input_dim = 1;
  int hidden = 16;
  int layers = 2;
  int classes = 2;
  float dropout = 0.5f;
  bool selu = true;  // false: ReLU
  int kprop_steps = 0;  // K_x
};

// The aggregation each kind needs its PreparedGraph built with.
Aggregation AggregationFor(NodeGnnKind kind);

// KProp: `steps` linear aggregations over `graph`, no parameters.
Tape::Var KProp(Tape& tape, const PreparedGraph& graph, Tape::Var x, int steps);

class NodeGnnModel {
 public:
  // Errors: kInvalidArgument for layers < 1, hidden < 1, classes < 2, input_dim < 1.
  static Result<NodeGnnModel> Create(const NodeGnnConfig& config, std::uint64_t seed);
  NodeGnnModel() = default;

  // Class scores for every node of `graph` (prepared with AggregationFor(kind)).
  // KProp steps aggregate over `kprop_graph` (LPGNN: Aggregation::kSymNoSelf),
  // or over `graph` when it is null. `x` must outlive the tape. `cache`: the
  // propagated products of factored features, kept between the passes of one
  // training (engine/propagated_product_cache.h).
  Tape::Var Forward(Tape& tape, const PreparedGraph& graph, const NodeFeatures& x,
                    const PreparedGraph* kprop_graph = nullptr, PropagatedProductCache* cache = nullptr);
  // The same from a dense tape variable (gradient checks take it w.r.t. x).
  Tape::Var Forward(Tape& tape, const PreparedGraph& graph, Tape::Var x,
                    const PreparedGraph* kprop_graph = nullptr);
  std::vector<Parameter*> Parameters();
  std::vector<BatchNormStats*> Stats() { return {}; }
  // Makes the model answer `scores` (one per class) for every node whatever
  // its inputs: every weight and bias 0 but the last layer's bias. (SELU
  // and ReLU map 0 to 0.) Requires scores.size() == config().classes.
  void SetConstantScores(const std::vector<float>& scores);
  const NodeGnnConfig& config() const { return config_; }

 private:
  // The graph convolutions on `h`, or, when `input` is set, on those features
  // (read by the first layer's products only: wider than its output).
  Tape::Var Convolutions(Tape& tape, const PreparedGraph& graph, Tape::Var h, const NodeFeatures* input,
                         PropagatedProductCache* cache);

  NodeGnnConfig config_;
  std::vector<LinearLayer> root_;   // GCN: the layer's weight; SAGE: W_root
  std::vector<LinearLayer> neigh_;  // SAGE only: W_neigh
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_MODELS_NODE_GNN_H_
