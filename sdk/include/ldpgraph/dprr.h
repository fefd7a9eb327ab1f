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

#include "ldpgraph/edge_mechanism.h"
#include "ldpgraph/samplers.h"

namespace ldpgraph {

struct BudgetSplit {
  double eps1 = 0;  // degree
  double eps2 = 0;  // bits
};

// Splits `epsilon` by `allocation`. The paper's rule (eq. 8, alpha_b = 0.9)
// needs n_max >= 2, the largest graph's user count. Errors: kInvalidArgument
// for NaN, infinite or non-positive epsilon, n_max < 2, or a split that
// leaves eps2 <= 0 (epsilon too small for n_max under eq. 8).
Result<BudgetSplit> AllocateBudget(double epsilon, BudgetAllocation allocation,
                                   std::uint32_t n_max);

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
  std::uint32_t num_users() const override { return n_; }

  double epsilon() const { return epsilon_; }
  double eps1() const { return split_.eps1; }
  double eps2() const { return split_.eps2; }
  double p() const { return p_; }
  BudgetAllocation allocation() const { return allocation_; }
  // q for a noisy degree d* (clamped to [0, n - 1] first), eq. 5 clamped to [0, 1].
  double SamplingProbability(std::int64_t noisy_degree) const;

 private:
  // Sets the fields every report of this mechanism carries alike.
  void Describe(NoisyEdges* out) const;
  std::uint32_t n_ = 2;
  double epsilon_ = 1;
  BudgetAllocation allocation_ = BudgetAllocation::kPaper;
  BudgetSplit split_;
  double p_ = 0.5;
  DiscreteLaplace degree_noise_;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DPRR_H_
