#include "models/mlp.h"

namespace ldpgraph {

Result<Mlp> Mlp::Create(const MlpConfig& c, const std::string& name, RandomSource& rng) {
  if (c.input_dim < 1 || c.hidden < 1 || c.layers < 1 || c.output_dim < 1 || !(c.dropout >= 0 && c.dropout < 1)) {
    return Status::InvalidArgument("an MLP needs input, hidden and output widths >= 1, layers >= 1, dropout in [0, 1)");
  }
  Mlp m;
  m.config_ = c;
  for (int k = 0; k < c.layers; ++k) {
    const int in = k == 0 ? c.input_dim : c.hidden, out = k + 1 == c.layers ? c.output_dim : c.hidden;
    m.layers_.emplace_back(name + "." + std::to_string(k), in, out, rng);
  }
  return m;
}

Tape::Var Mlp::Forward(Tape& tape, Tape::Var x) { return Rest(tape, x, 0); }

Tape::Var Mlp::Forward(Tape& tape, const NodeFeatures& x) {
  const Tape::InputVar input = x.is_sparse() ? tape.Input(&x.sparse(), config_.dropout)
                                             : tape.Input(x.dense(), config_.dropout);
  Tape::Var h = layers_[0].AddBias(tape, layers_[0].InputProduct(tape, input));
  if (layers_.size() > 1 || config_.activate_output) h = tape.Selu(h);
  return Rest(tape, h, 1);
}

Tape::Var Mlp::Rest(Tape& tape, Tape::Var h, std::size_t first) {
  for (std::size_t k = first; k < layers_.size(); ++k) {
    h = layers_[k].Forward(tape, tape.Dropout(h, config_.dropout));
    if (k + 1 < layers_.size() || config_.activate_output) h = tape.Selu(h);
  }
  return h;
}

std::vector<Parameter*> Mlp::Parameters() {
  std::vector<Parameter*> params;
  for (LinearLayer& layer : layers_) layer.Collect(&params);
  return params;
}

}  // namespace ldpgraph
