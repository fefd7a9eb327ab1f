#include "ldpgraph/dprr.h"

#include <algorithm>

#include "internal/dprr_rates.h"
#include "internal/memoised_rr.h"
#include "internal/sparse_rr.h"
#include "internal/validation.h"

namespace ldpgraph {

Result<Dprr> Dprr::Create(std::uint32_t n, double epsilon, BudgetAllocation allocation,
                          std::uint32_t n_max) {
  Dprr d;
  LDPGRAPH_RETURN_IF_ERROR(d.budget_.Set(n, epsilon, allocation, n_max));
  d.p_ = d.budget_.bit_keep_probability();
  return d;
}

double Dprr::SamplingProbability(std::int64_t noisy_degree) const {
  return internal::DprrSamplingProbability(num_users(), p_, noisy_degree);
}

void Dprr::Describe(NoisyEdges* out) const {
  budget_.Describe(EdgeMechanism::kDprr, out);
  out->p = p_;
}

Status Dprr::Perturb(std::uint32_t user, Span<const std::uint32_t> neighbours, RandomSource& rng,
                     NoisyEdges* out) const {
  std::vector<std::uint32_t> sorted;
  LDPGRAPH_RETURN_IF_ERROR(internal::SortAndCheckNeighbours(budget_.num_users(), user, neighbours, &sorted));

  const auto d = static_cast<std::int64_t>(sorted.size());
  const std::int64_t noisy_degree = d + budget_.degree_noise().Sample(rng);  // step 2
  Describe(out);
  out->q = SamplingProbability(noisy_degree);  // steps 4-5
  // Steps 6-7 fused: a true bit survives RR and sampling with p q, a false one
  // becomes a sampled 1 with (1 - p) q.
  return internal::SparseRandomizedResponse(rng, budget_.num_users(), user, sorted, p_ * out->q, (1.0 - p_) * out->q,
                                            &out->neighbours);
}

Status Dprr::PerturbMemoised(std::uint32_t user, Span<const std::uint32_t> neighbours, const PermanentCoins& coins,
                             NoisyEdges* out) const {
  std::vector<std::uint32_t> sorted;
  LDPGRAPH_RETURN_IF_ERROR(internal::SortAndCheckNeighbours(budget_.num_users(), user, neighbours, &sorted));
  // The degree's noise is memoised per degree value; the bits' coins are
  // compared with p q and (1 - p) q, so a new q (one friend more) moves only
  // the bits whose coin lies between the old and the new threshold.
  const std::int64_t noisy_degree = internal::MemoisedNoisyDegree(coins, budget_.degree_noise(), sorted.size());
  const auto t = static_cast<std::uint64_t>(std::clamp<std::int64_t>(noisy_degree, 0, static_cast<std::int64_t>(num_users()) - 1));
  Describe(out);
  out->q = SamplingProbability(noisy_degree);
  return internal::MemoisedSparseRandomizedResponse(coins, budget_.num_users(), user, sorted, p_ * out->q, internal::DprrRates(num_users(), p_), t,
                                                    &out->neighbours);
}

}  // namespace ldpgraph
