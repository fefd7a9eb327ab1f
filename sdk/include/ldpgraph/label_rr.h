// k-ary randomized response for a node's class label (LPGNN):
// Pr[y' = y] = e^eps / (e^eps + c - 1), every other class 1 / (e^eps + c - 1).
// epsilon-LDP. The transition matrix is public: the server's forward
// correction and Drop use it.
// Thread-safety: immutable after creation.
#ifndef LDPGRAPH_LABEL_RR_H_
#define LDPGRAPH_LABEL_RR_H_

#include <cstdint>

#include "ldpgraph/permanent_coins.h"
#include "ldpgraph/random_source.h"
#include "ldpgraph/status.h"

namespace ldpgraph {

class LabelRandomizer {
 public:
  // Errors: kInvalidArgument for classes < 2 or > 65536, or a bad epsilon.
  static Result<LabelRandomizer> Create(std::uint32_t classes, double epsilon);
  LabelRandomizer() = default;  // only for Result<>; use Create()

  // Errors: kOutOfRange if label >= classes (no randomness used then).
  Result<std::uint32_t> Perturb(std::uint32_t label, RandomSource& rng) const;
  // The memoised form (docs/rounds.md): Perturb() on the permanent coin of
  // the label's value (kLabel), so a label that stays sends the same answer.
  Result<std::uint32_t> PerturbMemoised(std::uint32_t label, const PermanentCoins& coins) const;

  std::uint32_t classes() const { return classes_; }
  double epsilon() const { return epsilon_; }
  double keep_probability() const { return keep_; }
  // Pr[y' = to | y = from].
  double TransitionProbability(std::uint32_t from, std::uint32_t to) const;

 private:
  std::uint32_t classes_ = 2;
  double epsilon_ = 1.0;
  double keep_ = 0.5;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_LABEL_RR_H_
