// A multi-layer perceptron on node rows, no graph: dropout before each
// Linear layer, SELU between them (and after the last when it feeds another
// module). GAP builds its encoder, its per-hop modules and its head from it;
// alone it is the edge-free baseline a graph model must beat.
#ifndef LDPGRAPH_DAEMON_MODELS_MLP_H_
#define LDPGRAPH_DAEMON_MODELS_MLP_H_

#include <string>
#include <vector>

#include "engine/layers.h"
#include "engine/node_features.h"

namespace ldpgraph {

struct MlpConfig {
  int input_dim = 1;
  int hidden = 16;
  int layers = 2;  // Linear layers
  int output_dim = 2;
  float dropout = 0.5f;
  bool activate_output = false;  // SELU after the last layer too (an embedding, not scores)
};

class Mlp {
 public:
  // Errors: kInvalidArgument for a dimension or layer count below 1, dropout outside [0, 1).
  static Result<Mlp> Create(const MlpConfig& config, const std::string& name, RandomSource& rng);
  Mlp() = default;

  Tape::Var Forward(Tape& tape, Tape::Var x);
  // The same on features (sparse or dense, read in place; must outlive the tape).
  Tape::Var Forward(Tape& tape, const NodeFeatures& x);
  std::vector<Parameter*> Parameters();
  std::vector<BatchNormStats*> Stats() { return {}; }
  const MlpConfig& config() const { return config_; }

 private:
  // Layers from `first` on, on h.
  Tape::Var Rest(Tape& tape, Tape::Var h, std::size_t first);

  MlpConfig config_;
  std::vector<LinearLayer> layers_;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_MODELS_MLP_H_
