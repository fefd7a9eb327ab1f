// GIN-0, the graph classifier of the DPRR paper (Xu et al., "How powerful
// are graph neural networks?"), as ALGORITHMS.md section 2 states it:
//   layers - 1 GIN layers h' = ReLU(BN(MLP((A + I) h))), MLP = Linear, BN, ReLU, Linear;
//   readout of every layer k (input included): pool per graph (mean or sum),
//   Linear_k to class scores, dropout, summed over the layers.
// Unattributed graphs: every node's input is the constant 1.
#ifndef LDPGRAPH_DAEMON_MODELS_GIN_H_
#define LDPGRAPH_DAEMON_MODELS_GIN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "engine/layers.h"
#include "graph/colour_classes.h"
#include "graph/graph_batch.h"
#include "models/graph_model.h"

namespace ldpgraph {

struct GinConfig {
  // Node inputs: 0 = the constant 1 (ALGORITHMS.md section 2, REDDIT in the
  // GIN paper); D > 0 = one-hot of min(reported degree, D) (the GIN paper's
  // choice for the other social datasets), input_dim = D + 1.
  int degree_cap = 0;
  // One more input, ln(number of users), the same for every node of a graph.
  // The number of users is public, so this costs no privacy; under DPRR it
  // is the part of a graph's shape the noise does not hide.
  bool size_input = false;
  int input_dim = 1;  // GinInputWidth()
  int hidden = 64;
  int layers = 5;  // the input plus layers - 1 GIN layers
  int classes = 2;
  float dropout = 0.5f;
  bool mean_readout = true;  // DPRR code: mean; GIN paper: sum
};

// The width of the node inputs the config asks for.
int GinInputWidth(const GinConfig& config);
// Sets degree_cap, size_input and input_dim from a --node-input name:
// "constant", "degree" (one-hot up to 127), "size" (constant and ln n),
// "degree+size". Errors: kInvalidArgument naming the choices.
Status SetGinNodeInput(const std::string& name, GinConfig* config);

class GinModel final : public GraphModel {
 public:
  // Errors: kInvalidArgument for layers < 2, hidden < 1, classes < 2, input_dim < 1.
  static Result<GinModel> Create(const GinConfig& config, std::uint64_t seed);
  GinModel() = default;

  Tape::Var Forward(Tape& tape, const GraphBatch& batch, Tape::Var x) override;
  // Every layer's predictor applied to each node's representation, summed.
  Tape::Var NodeScores(Tape& tape, const GraphBatch& batch, Tape::Var x) override;
  std::vector<Parameter*> Parameters() override;
  std::vector<BatchNormStats*> Stats() override;
  int classes() const override { return config_.classes; }
  const GinConfig& config() const { return config_; }
  // Whether Forward runs each layer once per colour class of the batch where
  // classes are few (graph/colour_classes.h); on by default. The same
  // values either way, up to the order of sums; off: once per node.
  void ShareColourClasses(bool on) { share_classes_ = on; }
  // A batch runs on colour classes when, summed over the layers, they are
  // at most this share of its nodes: short of it the per-node path, whose
  // layers are fused further (Tape::NormalisedMlp), is as fast.
  // REDDIT-BINARY's batches come to about 0.25; under DPRR noise nearly
  // every node is its own class from layer 2 on (0.75 or more, 4 layers).
  static constexpr double kMaxClassShare = 0.5;

 private:
  // The readout of every layer: pooled per graph, or per node (`pool` false).
  Tape::Var Readout(Tape& tape, const GraphBatch& batch, Tape::Var x, bool pool);
  // Forward's readout on the batch's colour classes (`classes` outlives the tape).
  Tape::Var ReadoutByClass(Tape& tape, const ColourClasses& classes, Tape::Var x);

  GinConfig config_;
  bool share_classes_ = true;
  std::vector<LinearLayer> mlp_first_, mlp_second_, predictors_;
  std::vector<BatchNormLayer> mlp_norm_, layer_norm_;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_MODELS_GIN_H_
