#include "ldpgraph/dprr.h"

#include <algorithm>
#include <cmath>

#include "internal/dprr_rates.h"
#include "internal/memoised_rr.h"
#include "internal/sparse_rr.h"
#include "internal/validation.h"

namespace ldpgraph {
namespace {
constexpr double kAlphaB = 0.9;  // the paper's share of epsilon for the bits under eq. 8

// p = e^eps / (e^eps + 1), written so that large epsilons do not overflow.
double KeepProbability(double eps) { return 1.0 / (1.0 + std::exp(-eps)); }
}  // namespace

Result<BudgetSplit> AllocateBudget(double epsilon, BudgetAllocation allocation,
                                   std::uint32_t n_max) {
  LDPGRAPH_RETURN_IF_ERROR(internal::CheckEpsilon(epsilon));
  BudgetSplit split;
  if (allocation == BudgetAllocation::kFixed) {
    split.eps1 = epsilon / 10.0;
    split.eps2 = epsilon - split.eps1;
    return split;
  }
  if (allocation != BudgetAllocation::kPaper) {
    return Status::InvalidArgument("unknown budget allocation value " +
                                   std::to_string(static_cast<int>(allocation)));
  }
  if (n_max < 2) {
    return Status::InvalidArgument("the paper allocation (eq. 8) needs n_max >= 2, got " +
                                   std::to_string(n_max));
  }
  split.eps1 = std::max(std::sqrt(8.0 / (static_cast<double>(n_max) - 1.0)),
                        (1.0 - kAlphaB) * epsilon);
  split.eps2 = epsilon - split.eps1;
  if (!(split.eps2 > 0.0)) {
    return Status::InvalidArgument(
        "epsilon " + internal::FormatDouble(epsilon) +
        " is too small for the paper allocation with n_max = " + std::to_string(n_max) +
        ": eps1 = sqrt(8 / (n_max - 1)) = " + internal::FormatDouble(split.eps1) +
        " leaves eps2 <= 0");
  }
  return split;
}

Result<Dprr> Dprr::Create(std::uint32_t n, double epsilon, BudgetAllocation allocation,
                          std::uint32_t n_max) {
  LDPGRAPH_RETURN_IF_ERROR(internal::CheckNumUsersAndBound(n, &n_max));
  Result<BudgetSplit> split = AllocateBudget(epsilon, allocation, n_max);
  if (!split.ok()) return split.status();
  Result<DiscreteLaplace> noise = DiscreteLaplace::Create(split->eps1);
  if (!noise.ok()) return noise.status();

  Dprr d;
  d.n_ = n;
  d.epsilon_ = epsilon;
  d.allocation_ = allocation;
  d.split_ = *split;
  d.p_ = KeepProbability(split->eps2);
  d.degree_noise_ = *noise;
  return d;
}

double Dprr::SamplingProbability(std::int64_t noisy_degree) const {
  const double d = static_cast<double>(
      std::clamp<std::int64_t>(noisy_degree, 0, static_cast<std::int64_t>(n_) - 1));
  const double q = d / (d * (2.0 * p_ - 1.0) + (static_cast<double>(n_) - 1.0) * (1.0 - p_));
  return std::clamp(q, 0.0, 1.0);
}

void Dprr::Describe(NoisyEdges* out) const {
  out->mechanism = EdgeMechanism::kDprr;
  out->allocation = allocation_;
  out->epsilon = epsilon_;
  out->eps1 = split_.eps1;
  out->eps2 = split_.eps2;
  out->p = p_;
  out->noisy_degree = 0;
  out->resolution = 1;
  out->values.clear();
}

Status Dprr::Perturb(std::uint32_t user, Span<const std::uint32_t> neighbours, RandomSource& rng,
                     NoisyEdges* out) const {
  std::vector<std::uint32_t> sorted;
  LDPGRAPH_RETURN_IF_ERROR(internal::SortAndCheckNeighbours(n_, user, neighbours, &sorted));

  const auto d = static_cast<std::int64_t>(sorted.size());
  const std::int64_t noisy_degree = d + degree_noise_.Sample(rng);  // step 2
  Describe(out);
  out->q = SamplingProbability(noisy_degree);  // steps 4-5
  // Steps 6-7 fused: a true bit survives RR and sampling with p q, a false one
  // becomes a sampled 1 with (1 - p) q.
  return internal::SparseRandomizedResponse(rng, n_, user, sorted, p_ * out->q, (1.0 - p_) * out->q,
                                            &out->neighbours);
}

Status Dprr::PerturbMemoised(std::uint32_t user, Span<const std::uint32_t> neighbours, const PermanentCoins& coins,
                             NoisyEdges* out) const {
  std::vector<std::uint32_t> sorted;
  LDPGRAPH_RETURN_IF_ERROR(internal::SortAndCheckNeighbours(n_, user, neighbours, &sorted));
  // The degree's noise is memoised per degree value; the bits' coins are
  // compared with p q and (1 - p) q, so a new q (one friend more) moves only
  // the bits whose coin lies between the old and the new threshold.
  const std::int64_t noisy_degree = internal::MemoisedNoisyDegree(coins, degree_noise_, sorted.size());
  const auto t = static_cast<std::uint64_t>(std::clamp<std::int64_t>(noisy_degree, 0, static_cast<std::int64_t>(n_) - 1));
  Describe(out);
  out->q = SamplingProbability(noisy_degree);
  return internal::MemoisedSparseRandomizedResponse(coins, n_, user, sorted, p_ * out->q, internal::DprrRates(*this), t,
                                                    &out->neighbours);
}

}  // namespace ldpgraph
