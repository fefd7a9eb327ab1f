#include "ldpgraph/rr_with_degree.h"

#include <cmath>

#include "internal/memoised_rr.h"
#include "internal/sparse_rr.h"
#include "internal/validation.h"

namespace ldpgraph {

Result<RrWithDegree> RrWithDegree::Create(std::uint32_t n, double epsilon, BudgetAllocation allocation,
                                          std::uint32_t n_max) {
  LDPGRAPH_RETURN_IF_ERROR(internal::CheckNumUsersAndBound(n, &n_max));
  Result<BudgetSplit> split = AllocateBudget(epsilon, allocation, n_max);
  if (!split.ok()) return split.status();
  Result<DiscreteLaplace> noise = DiscreteLaplace::Create(split->eps1);
  if (!noise.ok()) return noise.status();
  RrWithDegree r;
  r.n_ = n;
  r.epsilon_ = epsilon;
  r.allocation_ = allocation;
  r.split_ = *split;
  r.p_ = 1.0 / (1.0 + std::exp(-split->eps2));
  r.degree_noise_ = *noise;
  return r;
}

void RrWithDegree::Describe(NoisyEdges* out) const {
  out->mechanism = EdgeMechanism::kRrDegree;
  out->allocation = allocation_;
  out->epsilon = epsilon_;
  out->eps1 = split_.eps1;
  out->eps2 = split_.eps2;
  out->p = p_;
  out->q = 1.0;
  out->resolution = 1;
  out->values.clear();
}

Status RrWithDegree::Perturb(std::uint32_t user, Span<const std::uint32_t> neighbours, RandomSource& rng,
                             NoisyEdges* out) const {
  std::vector<std::uint32_t> sorted;
  LDPGRAPH_RETURN_IF_ERROR(internal::SortAndCheckNeighbours(n_, user, neighbours, &sorted));
  Describe(out);
  out->noisy_degree = static_cast<std::int64_t>(sorted.size()) + degree_noise_.Sample(rng);
  // 1 - p as 1/(1 + e^eps2): its relative precision holds for large eps2.
  return internal::SparseRandomizedResponse(rng, n_, user, sorted, p_, 1.0 / (1.0 + std::exp(split_.eps2)),
                                            &out->neighbours);
}

Status RrWithDegree::PerturbMemoised(std::uint32_t user, Span<const std::uint32_t> neighbours,
                                     const PermanentCoins& coins, NoisyEdges* out) const {
  std::vector<std::uint32_t> sorted;
  LDPGRAPH_RETURN_IF_ERROR(internal::SortAndCheckNeighbours(n_, user, neighbours, &sorted));
  Describe(out);
  out->noisy_degree = internal::MemoisedNoisyDegree(coins, degree_noise_, sorted.size());
  const internal::ConstantRate rate(1.0 / (1.0 + std::exp(split_.eps2)));
  return internal::MemoisedSparseRandomizedResponse(coins, n_, user, sorted, p_, rate, 0, &out->neighbours);
}

}  // namespace ldpgraph
