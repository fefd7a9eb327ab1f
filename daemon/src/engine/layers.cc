#include "engine/layers.h"

#include <cmath>

namespace ldpgraph {

LinearLayer::LinearLayer(const std::string& name, int in, int out, RandomSource& rng)
    : w_(name + ".weight", in, out), b_(name + ".bias", 1, out) {
  const float bound = 1.0f / std::sqrt(static_cast<float>(in));
  w_.InitUniform(rng, bound);
  b_.InitUniform(rng, bound);
}

Tape::Var LinearLayer::Forward(Tape& tape, Tape::Var x) {
  return tape.Linear(x, tape.Param(&w_), tape.Param(&b_));
}

BatchNormLayer::BatchNormLayer(const std::string& name, int features)
    : gamma_(name + ".weight", 1, features), beta_(name + ".bias", 1, features) {
  gamma_.value.setOnes();
  gamma_.decay = false;
  beta_.decay = false;
  stats_.mean = RowVector::Zero(features);
  stats_.var = RowVector::Ones(features);
}

}  // namespace ldpgraph
