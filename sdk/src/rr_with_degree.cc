#include "ldpgraph/rr_with_degree.h"

#include <cmath>

#include "internal/memoised_rr.h"
#include "internal/sparse_rr.h"
#include "internal/validation.h"

namespace ldpgraph {

Result<RrWithDegree> RrWithDegree::Create(std::uint32_t n, double epsilon, BudgetAllocation allocation,
                                          std::uint32_t n_max) {
  RrWithDegree r;
  LDPGRAPH_RETURN_IF_ERROR(r.budget_.Set(n, epsilon, allocation, n_max));
  r.p_ = r.budget_.bit_keep_probability();
  return r;
}

void RrWithDegree::Describe(NoisyEdges* out) const {
  budget_.Describe(EdgeMechanism::kRrDegree, out);
  out->p = p_;
}

Status RrWithDegree::Perturb(std::uint32_t user, Span<const std::uint32_t> neighbours, RandomSource& rng,
                             NoisyEdges* out) const {
  std::vector<std::uint32_t> sorted;
  LDPGRAPH_RETURN_IF_ERROR(internal::SortAndCheckNeighbours(budget_.num_users(), user, neighbours, &sorted));
  Describe(out);
  out->noisy_degree = static_cast<std::int64_t>(sorted.size()) + budget_.degree_noise().Sample(rng);
  // 1 - p as 1/(1 + e^eps2): its relative precision holds for large eps2.
  return internal::SparseRandomizedResponse(rng, budget_.num_users(), user, sorted, p_, 1.0 / (1.0 + std::exp(budget_.split().eps2)),
                                            &out->neighbours);
}

Status RrWithDegree::PerturbMemoised(std::uint32_t user, Span<const std::uint32_t> neighbours,
                                     const PermanentCoins& coins, NoisyEdges* out) const {
  std::vector<std::uint32_t> sorted;
  LDPGRAPH_RETURN_IF_ERROR(internal::SortAndCheckNeighbours(budget_.num_users(), user, neighbours, &sorted));
  Describe(out);
  out->noisy_degree = internal::MemoisedNoisyDegree(coins, budget_.degree_noise(), sorted.size());
  const internal::ConstantRate rate(1.0 / (1.0 + std::exp(budget_.split().eps2)));
  return internal::MemoisedSparseRandomizedResponse(coins, budget_.num_users(), user, sorted, p_, rate, 0, &out->neighbours);
}

}  // namespace ldpgraph
