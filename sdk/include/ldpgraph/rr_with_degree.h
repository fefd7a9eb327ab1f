// RR with degree: Warner's randomized response on every bit (eps2) and the
// degree through the discrete Laplace mechanism (eps1), both sent. This is
// the report of Blink (Zhu, Tan and Xiao, CCS 2023) and DPRR's steps 1-6
// without the edge sampling of step 7: the server receives the whole RR row,
// so it can weigh each reported id by both ends' reports and a degree-based
// prior (daemon/src/linkldp/). (eps1 + eps2)-edge LDP by composition.
//
// Budget split as DPRR's (AllocateBudget): the paper's eq. 8 gives the degree
// max(sqrt(8 / (n_max - 1)), epsilon / 10), the fixed rule epsilon / 10
// (Blink's default share). The row costs O(d + K) to sample with
// K ~ Binomial(n - 1 - d, 1 - p): about (n - 1) / (e^eps2 + 1) false ids, so
// the report is as long as RR's. The noisy degree is not clamped: clamping
// is post-processing the server may do.
#ifndef LDPGRAPH_RR_WITH_DEGREE_H_
#define LDPGRAPH_RR_WITH_DEGREE_H_

#include "ldpgraph/degree_budget.h"

namespace ldpgraph {

class RrWithDegree final : public EdgeRandomizer {
 public:
  // Errors: kInvalidArgument for n < 2, n_max < n, and AllocateBudget's errors.
  static Result<RrWithDegree> Create(std::uint32_t n, double epsilon,
                                     BudgetAllocation allocation = BudgetAllocation::kPaper,
                                     std::uint32_t n_max = 0 /* 0: n */);
  RrWithDegree() = default;  // only for Result<>; use Create()

  Status Perturb(std::uint32_t user, Span<const std::uint32_t> neighbours, RandomSource& rng,
                 NoisyEdges* out) const override;
  Status PerturbMemoised(std::uint32_t user, Span<const std::uint32_t> neighbours, const PermanentCoins& coins,
                         NoisyEdges* out) const;  // see ldpgraph::PerturbMemoised
  EdgeMechanism mechanism() const override { return EdgeMechanism::kRrDegree; }
  std::uint32_t num_users() const override { return budget_.num_users(); }

  double epsilon() const { return budget_.epsilon(); }
  double eps1() const { return budget_.split().eps1; }
  double eps2() const { return budget_.split().eps2; }
  double p() const { return p_; }

 private:
  // Sets the fields every report of this mechanism carries alike.
  void Describe(NoisyEdges* out) const;
  DegreeBudget budget_;
  double p_ = 0.5;  // budget_.bit_keep_probability(), kept for the hot loop
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_RR_WITH_DEGREE_H_
