#include "engine/layers.h"

#include <cmath>

namespace ldpgraph {

LinearLayer::LinearLayer(const std::string& name, int in, int out, RandomSource& rng)
    : w_(name + ".weight", in, out), b_(name + ".bias", 1, out) {
  const float bound = 1.0f / std::sqrt(static_cast<float>(in));
  w_.InitUniform(rng, bound);
  b_.InitUniform(rng, bound);
}

Tape::Var LinearLayer::FactoredProduct(Tape& tape, Tape::InputVar s, const FactoredFeatures& x,
                                       PropagatedProductCache::Entry* cache) {
  const Tape::Var w = tape.Param(&w_);
  const bool hit = cache != nullptr && cache->Holds(x, w_.value);
  auto remember = [&](Tape::Var y) {
    if (hit) {
      cache->input = nullptr;  // its value was taken
    } else if (cache != nullptr && !tape.training()) {
      // Training changes W right after this pass; evaluation leaves it as it is.
      cache->input = &x;
      cache->weight = w_.value;
      cache->value = tape.value(y);
    }
  };
  if (x.packed != nullptr) {
    const Tape::Var y = tape.PackedProduct(x.packed.get(), w, hit ? &cache->value : nullptr);
    remember(y);
    return y;
  }
  Tape::Var y = tape.InputProduct(s, w);
  if (x.steps > 0) {
    y = tape.AggregateSteps(x.propagation.get(), x.propagation_t.get(), y, x.steps, hit ? &cache->value : nullptr);
    remember(y);
  }
  if (x.left.cols() == 0) return y;
  const Tape::Var right_w = tape.Linear(tape.ConstantView(&x.right), w, Tape::kNone);
  const Tape::Var low_rank = tape.Linear(tape.ConstantView(&x.left), right_w, Tape::kNone);
  return tape.Add(y, low_rank);
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
