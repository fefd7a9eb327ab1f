#include "models/gin.h"

#include <string>

namespace ldpgraph {

int GinInputWidth(const GinConfig& c) { return NodeInputWidth(c.degree_cap, c.size_input); }

Status SetGinNodeInput(const std::string& name, GinConfig* config) {
  const bool degree = name == "degree" || name == "degree+size";
  const bool size = name == "size" || name == "degree+size";
  if (!degree && !size && name != "constant") {
    return Status::InvalidArgument("--node-input must be constant, degree, size or degree+size, got '" + name + "'");
  }
  config->degree_cap = degree ? 127 : 0;
  config->size_input = size;
  config->input_dim = GinInputWidth(*config);
  return Status::Ok();
}

Result<GinModel> GinModel::Create(const GinConfig& c, std::uint64_t seed) {
  if (c.degree_cap < 0 || ((c.degree_cap > 0 || c.size_input) && c.input_dim != GinInputWidth(c))) {
    return Status::InvalidArgument("GIN with degree or size inputs needs input_dim = " +
                                   std::to_string(GinInputWidth(c)));
  }
  if (c.layers < 2 || c.hidden < 1 || c.classes < 2 || c.input_dim < 1 || !(c.dropout >= 0 && c.dropout < 1)) {
    return Status::InvalidArgument("GIN needs layers >= 2, hidden >= 1, classes >= 2, input_dim >= 1, "
                                   "dropout in [0, 1)");
  }
  SeededRandomSource rng(seed);
  GinModel m;
  m.config_ = c;
  for (int k = 0; k + 1 < c.layers; ++k) {
    const std::string p = "gin." + std::to_string(k);
    m.mlp_first_.emplace_back(p + ".mlp.0", k == 0 ? c.input_dim : c.hidden, c.hidden, rng);
    m.mlp_norm_.emplace_back(p + ".mlp.bn", c.hidden);
    m.mlp_second_.emplace_back(p + ".mlp.1", c.hidden, c.hidden, rng);
    m.layer_norm_.emplace_back(p + ".bn", c.hidden);
  }
  for (int k = 0; k < c.layers; ++k) {
    m.predictors_.emplace_back("pred." + std::to_string(k), k == 0 ? c.input_dim : c.hidden, c.classes, rng);
  }
  return m;
}

Tape::Var GinModel::Forward(Tape& tape, const GraphBatch& batch, Tape::Var x) {
  if (share_classes_) {
    ColourClasses classes = BuildColourClasses(batch, tape.value(x), static_cast<int>(mlp_first_.size()),
                                               config_.mean_readout, kMaxClassShare);
    if (!classes.levels.empty()) return ReadoutByClass(tape, *tape.Own(std::move(classes)), x);
  }
  return Readout(tape, batch, x, true);
}

Tape::Var GinModel::ReadoutByClass(Tape& tape, const ColourClasses& classes, Tape::Var x) {
  auto readout = [&](std::size_t k, Tape::Var h) {
    const ClassLevel& level = classes.levels[k];
    const Tape::Var pooled = tape.Aggregate(&level.pool, &level.pool_t, h);
    return tape.Dropout(predictors_[k].Forward(tape, pooled), config_.dropout);
  };
  Tape::Var h = tape.Aggregate(&classes.levels[0].step, &classes.levels[0].step_t, x);
  Tape::Var scores = readout(0, h);
  for (std::size_t k = 0; k < mlp_first_.size(); ++k) {
    const ClassLevel& level = classes.levels[k + 1];
    const Tape::Var a = tape.Aggregate(&level.step, &level.step_t, h);
    const Tape::NormalisedLinear first = mlp_norm_[k].After(tape, mlp_first_[k]);
    const Tape::NormalisedLinear second = layer_norm_[k].After(tape, mlp_second_[k]);
    Tape::Var y = tape.Linear(a, first.w, first.b);
    y = tape.WeightedBatchNorm(y, first.gamma, first.beta, first.stats, &level.members, true);
    y = tape.Linear(y, second.w, second.b);
    h = tape.WeightedBatchNorm(y, second.gamma, second.beta, second.stats, &level.members, true);
    scores = tape.Add(scores, readout(k + 1, h));
  }
  return scores;
}

Tape::Var GinModel::NodeScores(Tape& tape, const GraphBatch& batch, Tape::Var x) { return Readout(tape, batch, x, false); }

Tape::Var GinModel::Readout(Tape& tape, const GraphBatch& batch, Tape::Var x, bool pool) {
  auto readout = [&](LinearLayer& predictor, Tape::Var h) {
    if (pool) h = tape.Pool(&batch.offsets, h, config_.mean_readout);
    return tape.Dropout(predictor.Forward(tape, h), config_.dropout);
  };
  Tape::Var h = x;
  Tape::Var scores = readout(predictors_[0], h);
  for (std::size_t k = 0; k < mlp_first_.size(); ++k) {
    Tape::Var a = tape.Aggregate(&batch.agg, &batch.agg_t, h);
    const Tape::NormalisedLinear first = mlp_norm_[k].After(tape, mlp_first_[k]);
    h = tape.NormalisedMlp(a, first, layer_norm_[k].After(tape, mlp_second_[k]));
    scores = tape.Add(scores, readout(predictors_[k + 1], h));
  }
  return scores;
}

std::vector<Parameter*> GinModel::Parameters() {
  std::vector<Parameter*> params;
  for (std::size_t k = 0; k < mlp_first_.size(); ++k) {
    mlp_first_[k].Collect(&params);
    mlp_norm_[k].Collect(&params);
    mlp_second_[k].Collect(&params);
    layer_norm_[k].Collect(&params);
  }
  for (auto& p : predictors_) p.Collect(&params);
  return params;
}

std::vector<BatchNormStats*> GinModel::Stats() {
  std::vector<BatchNormStats*> stats;
  for (std::size_t k = 0; k < mlp_norm_.size(); ++k) {
    stats.push_back(mlp_norm_[k].stats());
    stats.push_back(layer_norm_[k].stats());
  }
  return stats;
}

}  // namespace ldpgraph
