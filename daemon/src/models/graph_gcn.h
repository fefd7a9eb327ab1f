// The graph GCN of the GW-LDP paper's Table 1: two graph convolutions
// (Kipf & Welling, D^-1/2 (A + I) D^-1/2 X W), the first to `hidden` units
// with ReLU and dropout, the second straight to class scores per node, and
// their mean over each graph's nodes as the graph's scores (average
// pooling). Its graphs must be prepared with Aggregation::kGcn.
#ifndef LDPGRAPH_DAEMON_MODELS_GRAPH_GCN_H_
#define LDPGRAPH_DAEMON_MODELS_GRAPH_GCN_H_

#include <cstdint>

#include "engine/layers.h"
#include "models/graph_model.h"

namespace ldpgraph {

struct GraphGcnConfig {
  int input_dim = 1;
  int hidden = 16;
  int classes = 2;
  float dropout = 0.5f;
};

class GraphGcnModel final : public GraphModel {
 public:
  // Errors: kInvalidArgument for input_dim, hidden < 1, classes < 2 or a
  // dropout outside [0, 1).
  static Result<GraphGcnModel> Create(const GraphGcnConfig& config, std::uint64_t seed);
  GraphGcnModel() = default;

  Tape::Var Forward(Tape& tape, const GraphBatch& batch, Tape::Var x) override;
  Tape::Var NodeScores(Tape& tape, const GraphBatch& batch, Tape::Var x) override;
  std::vector<Parameter*> Parameters() override;
  std::vector<BatchNormStats*> Stats() override { return {}; }
  int classes() const override { return config_.classes; }

 private:
  GraphGcnConfig config_;
  LinearLayer first_, second_;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_MODELS_GRAPH_GCN_H_
