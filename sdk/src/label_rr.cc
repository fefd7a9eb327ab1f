#include "ldpgraph/label_rr.h"

#include <cmath>
#include <string>

#include "internal/validation.h"
#include "ldpgraph/samplers.h"

namespace ldpgraph {

Result<LabelRandomizer> LabelRandomizer::Create(std::uint32_t classes, double epsilon) {
  if (classes < 2 || classes > 65536) {
    return Status::InvalidArgument("classes must be in [2, 65536], got " +
                                   std::to_string(classes));
  }
  LDPGRAPH_RETURN_IF_ERROR(internal::CheckEpsilon(epsilon, "label epsilon"));
  LabelRandomizer r;
  r.classes_ = classes;
  r.epsilon_ = epsilon;
  // e^eps / (e^eps + c - 1) = 1 / (1 + (c - 1) e^-eps): no overflow for large eps.
  r.keep_ = 1.0 / (1.0 + (classes - 1.0) * std::exp(-epsilon));
  return r;
}

Result<std::uint32_t> LabelRandomizer::Perturb(std::uint32_t label, RandomSource& rng) const {
  if (label >= classes_) {
    return Status::OutOfRange("label " + std::to_string(label) + " is not below classes = " +
                              std::to_string(classes_));
  }
  if (Bernoulli(rng, keep_)) return label;
  // Uniform over the other c - 1 classes.
  auto other = static_cast<std::uint32_t>(UniformBelow(rng, classes_ - 1));
  return other >= label ? other + 1 : other;
}

Result<std::uint32_t> LabelRandomizer::PerturbMemoised(std::uint32_t label, const PermanentCoins& coins) const {
  CoinStream coin = coins.Coin(CoinPurpose::kLabel, 0, label);
  return Perturb(label, coin);
}

double LabelRandomizer::TransitionProbability(std::uint32_t from, std::uint32_t to) const {
  if (from >= classes_ || to >= classes_) return 0.0;
  return from == to ? keep_ : (1.0 - keep_) / (classes_ - 1.0);
}

}  // namespace ldpgraph
