#include "ldpgraph/degree_budget.h"

#include <algorithm>
#include <cmath>

#include "internal/validation.h"

namespace ldpgraph {
namespace {
constexpr double kAlphaB = 0.9;  // the paper's share of epsilon for the bits under eq. 8
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

Status DegreeBudget::Set(std::uint32_t n, double epsilon, BudgetAllocation allocation, std::uint32_t n_max) {
  LDPGRAPH_RETURN_IF_ERROR(internal::CheckNumUsersAndBound(n, &n_max));
  Result<BudgetSplit> split = AllocateBudget(epsilon, allocation, n_max);
  if (!split.ok()) return split.status();
  Result<DiscreteLaplace> noise = DiscreteLaplace::Create(split->eps1);
  if (!noise.ok()) return noise.status();
  n_ = n;
  epsilon_ = epsilon;
  allocation_ = allocation;
  split_ = *split;
  degree_noise_ = *noise;
  return Status::Ok();
}

void DegreeBudget::Describe(EdgeMechanism mechanism, NoisyEdges* out) const {
  out->mechanism = mechanism;
  out->allocation = allocation_;
  out->epsilon = epsilon_;
  out->eps1 = split_.eps1;
  out->eps2 = split_.eps2;
  out->p = 1.0;
  out->q = 1.0;
  out->noisy_degree = 0;
  out->resolution = 1;
  out->values.clear();
}

}  // namespace ldpgraph
