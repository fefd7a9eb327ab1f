// Warner's randomized response on every bit of the neighbour list: each bit
// is kept with probability p = e^eps / (e^eps + 1), flipped otherwise.
// epsilon-edge LDP. Sampled in O(d + K) like DPRR with q = 1, where
// K ~ Binomial(n - 1 - d, 1 - p) is about (n - 1)/(e^eps + 1): RR makes the
// graph dense, which is why DPRR exists.
#ifndef LDPGRAPH_RANDOMIZED_RESPONSE_H_
#define LDPGRAPH_RANDOMIZED_RESPONSE_H_

#include "ldpgraph/edge_mechanism.h"

namespace ldpgraph {

// Warner's keep probability for one bit at `eps`: e^eps / (e^eps + 1),
// written so that large epsilons do not overflow. DPRR and RR with the
// degree keep their bits with it at eps2 (degree_budget.h).
double KeepProbability(double eps);

class RandomizedResponse final : public EdgeRandomizer {
 public:
  // Errors: kInvalidArgument for n < 2 or NaN, infinite or non-positive epsilon.
  static Result<RandomizedResponse> Create(std::uint32_t n, double epsilon);
  RandomizedResponse() = default;  // only for Result<>; use Create()

  Status Perturb(std::uint32_t user, Span<const std::uint32_t> neighbours, RandomSource& rng,
                 NoisyEdges* out) const override;
  Status PerturbMemoised(std::uint32_t user, Span<const std::uint32_t> neighbours, const PermanentCoins& coins,
                         NoisyEdges* out) const;  // see ldpgraph::PerturbMemoised
  EdgeMechanism mechanism() const override { return EdgeMechanism::kRr; }
  std::uint32_t num_users() const override { return n_; }

  double epsilon() const { return epsilon_; }
  double p() const { return p_; }

 private:
  // Sets the fields every report of this mechanism carries alike.
  void Describe(NoisyEdges* out) const;
  std::uint32_t n_ = 2;
  double epsilon_ = 1;
  double p_ = 0.5;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_RANDOMIZED_RESPONSE_H_
