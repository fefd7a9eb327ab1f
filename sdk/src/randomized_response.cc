#include "ldpgraph/randomized_response.h"

#include <cmath>

#include "internal/memoised_rr.h"
#include "internal/sparse_rr.h"
#include "internal/validation.h"

namespace ldpgraph {

double KeepProbability(double eps) { return 1.0 / (1.0 + std::exp(-eps)); }

Result<RandomizedResponse> RandomizedResponse::Create(std::uint32_t n, double epsilon) {
  LDPGRAPH_RETURN_IF_ERROR(internal::CheckNumUsers(n));
  LDPGRAPH_RETURN_IF_ERROR(internal::CheckEpsilon(epsilon));
  RandomizedResponse rr;
  rr.n_ = n;
  rr.epsilon_ = epsilon;
  rr.p_ = KeepProbability(epsilon);
  return rr;
}

void RandomizedResponse::Describe(NoisyEdges* out) const {
  out->mechanism = EdgeMechanism::kRr;
  out->allocation = BudgetAllocation::kPaper;
  out->epsilon = epsilon_;
  out->eps1 = 0;
  out->eps2 = epsilon_;
  out->p = p_;
  out->q = 1.0;
  out->noisy_degree = 0;
  out->resolution = 1;
  out->values.clear();
}

Status RandomizedResponse::Perturb(std::uint32_t user, Span<const std::uint32_t> neighbours,
                                   RandomSource& rng, NoisyEdges* out) const {
  std::vector<std::uint32_t> sorted;
  LDPGRAPH_RETURN_IF_ERROR(internal::SortAndCheckNeighbours(n_, user, neighbours, &sorted));
  Describe(out);
  // 1 - p computed as 1/(1 + e^eps) keeps its relative precision for large eps.
  return internal::SparseRandomizedResponse(rng, n_, user, sorted, p_,
                                            1.0 / (1.0 + std::exp(epsilon_)), &out->neighbours);
}

Status RandomizedResponse::PerturbMemoised(std::uint32_t user, Span<const std::uint32_t> neighbours,
                                           const PermanentCoins& coins, NoisyEdges* out) const {
  std::vector<std::uint32_t> sorted;
  LDPGRAPH_RETURN_IF_ERROR(internal::SortAndCheckNeighbours(n_, user, neighbours, &sorted));
  Describe(out);
  const internal::ConstantRate rate(1.0 / (1.0 + std::exp(epsilon_)));
  return internal::MemoisedSparseRandomizedResponse(coins, n_, user, sorted, p_, rate, 0, &out->neighbours);
}

}  // namespace ldpgraph
