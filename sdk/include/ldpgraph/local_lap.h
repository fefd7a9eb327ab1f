// The client part of LocalLap, the DPRR paper's local version of LAPGRAPH:
// the user sends d* = d + Lap(1/eps1) and a_j + Lap(1/eps2) for every other
// user j; the server (ldpgraphd) sums the d* into a noisy edge count T and
// keeps the T largest values of the upper triangle. eps1 = eps/10 (fixed, as
// the paper) or eq. 8 (paper allocation). (eps1 + eps2)-edge LDP.
//
// Noise is discrete Laplace (see samplers.h for why): the degree gets integer
// noise; values live on a lattice of step 1/resolution, value_j =
// resolution * a_j + DLap with Pr ~ exp(-eps2 |x| / resolution), which has
// the same privacy as a_j + Lap(1/eps2) and, for resolution >= 16, almost no
// ties for the server's top-T selection. Cost O(n) per user, as in the paper.
#ifndef LDPGRAPH_LOCAL_LAP_H_
#define LDPGRAPH_LOCAL_LAP_H_

#include "ldpgraph/degree_budget.h"

namespace ldpgraph {

class LocalLapClient final : public EdgeRandomizer {
 public:
  // Errors: kInvalidArgument for n < 2, resolution < 1 or > 2^20, and
  // AllocateBudget's errors.
  static Result<LocalLapClient> Create(std::uint32_t n, double epsilon,
                                       BudgetAllocation allocation = BudgetAllocation::kFixed,
                                       std::uint32_t n_max = 0, std::uint32_t resolution = 16);
  LocalLapClient() = default;  // only for Result<>; use Create()

  Status Perturb(std::uint32_t user, Span<const std::uint32_t> neighbours, RandomSource& rng,
                 NoisyEdges* out) const override;
  Status PerturbMemoised(std::uint32_t user, Span<const std::uint32_t> neighbours, const PermanentCoins& coins,
                         NoisyEdges* out) const;  // see ldpgraph::PerturbMemoised
  EdgeMechanism mechanism() const override { return EdgeMechanism::kLocalLap; }
  std::uint32_t num_users() const override { return budget_.num_users(); }

 private:
  // Sets the fields every report of this mechanism carries alike.
  void Describe(NoisyEdges* out) const;
  // Writes the n - 1 values: resolution x bit + noise(j, bit), for j != user.
  template <typename Noise>
  void FillValues(std::uint32_t user, const std::vector<std::uint32_t>& sorted, const Noise& noise,
                  NoisyEdges* out) const;
  DegreeBudget budget_;
  std::uint32_t resolution_ = 16;
  DiscreteLaplace value_noise_;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_LOCAL_LAP_H_
