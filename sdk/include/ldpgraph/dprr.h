// DPRR: degree-preserving randomized response (Hidano and Murakami, Algorithm 1).
//
// The user perturbs her degree with the discrete Laplace mechanism (eps1),
// applies Warner's RR to each bit (eps2, p = e^eps2 / (e^eps2 + 1)) and keeps
// each resulting 1 with probability q = d* / (d* (2p - 1) + (n - 1)(1 - p))
// (eq. 5), so that E[noisy degree] ~= d. Total: (eps1 + eps2)-edge LDP.
//
// Sampling is exact and O(d + K): true neighbours survive with probability
// p q each; K ~ Binomial(n - 1 - d, (1 - p) q) non-neighbours are drawn
// uniformly. This is the same distribution as the per-bit procedure.
//
// d* is clamped to [0, n - 1] before q is computed (post-processing, so free
// for privacy): without it a very negative d* makes q's numerator and
// denominator both negative and q jumps to 1. The reference code clamps at 0
// only; the `fixed` allocation still uses both clamps.
#ifndef LDPGRAPH_DPRR_H_
#define LDPGRAPH_DPRR_H_

#include "ldpgraph/degree_budget.h"

namespace ldpgraph {

class Dprr final : public EdgeRandomizer {
 public:
  // Errors: kInvalidArgument for n < 2, n_max < n, and AllocateBudget's errors.
  static Result<Dprr> Create(std::uint32_t n, double epsilon,
                             BudgetAllocation allocation = BudgetAllocation::kPaper,
                             std::uint32_t n_max = 0 /* 0: n */);
  Dprr() = default;  // only for Result<>; use Create()

  Status Perturb(std::uint32_t user, Span<const std::uint32_t> neighbours, RandomSource& rng,
                 NoisyEdges* out) const override;
  Status PerturbMemoised(std::uint32_t user, Span<const std::uint32_t> neighbours, const PermanentCoins& coins,
                         NoisyEdges* out) const;  // see ldpgraph::PerturbMemoised
  EdgeMechanism mechanism() const override { return EdgeMechanism::kDprr; }
  std::uint32_t num_users() const override { return budget_.num_users(); }

  double epsilon() const { return budget_.epsilon(); }
  double eps1() const { return budget_.split().eps1; }
  double eps2() const { return budget_.split().eps2; }
  double p() const { return p_; }
  BudgetAllocation allocation() const { return budget_.allocation(); }
  // q for a noisy degree d* (clamped to [0, n - 1] first), eq. 5 clamped to [0, 1].
  double SamplingProbability(std::int64_t noisy_degree) const;

 private:
  // Sets the fields every report of this mechanism carries alike.
  void Describe(NoisyEdges* out) const;
  DegreeBudget budget_;
  double p_ = 0.5;  // budget_.bit_keep_probability(), kept for the hot loop
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DPRR_H_
