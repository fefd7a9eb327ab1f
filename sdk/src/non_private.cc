#include "ldpgraph/non_private.h"

#include <limits>

#include "internal/validation.h"

namespace ldpgraph {

Result<NonPrivateEdges> NonPrivateEdges::Create(std::uint32_t n) {
  LDPGRAPH_RETURN_IF_ERROR(internal::CheckNumUsers(n));
  NonPrivateEdges m;
  m.n_ = n;
  return m;
}

void NonPrivateEdges::Describe(NoisyEdges* out) const {
  out->mechanism = EdgeMechanism::kNone;
  out->allocation = BudgetAllocation::kPaper;
  out->epsilon = std::numeric_limits<double>::infinity();
  out->eps1 = out->eps2 = 0;
  out->p = out->q = 1.0;
  out->noisy_degree = 0;
  out->resolution = 1;
  out->values.clear();
}

Status NonPrivateEdges::Perturb(std::uint32_t user, Span<const std::uint32_t> neighbours,
                                RandomSource& /*rng: no noise*/, NoisyEdges* out) const {
  LDPGRAPH_RETURN_IF_ERROR(internal::SortAndCheckNeighbours(n_, user, neighbours, &out->neighbours));
  Describe(out);
  return Status::Ok();
}

Status NonPrivateEdges::PerturbMemoised(std::uint32_t user, Span<const std::uint32_t> neighbours,
                                        const PermanentCoins& /*coins: no noise*/, NoisyEdges* out) const {
  LDPGRAPH_RETURN_IF_ERROR(internal::SortAndCheckNeighbours(n_, user, neighbours, &out->neighbours));
  Describe(out);
  return Status::Ok();
}

}  // namespace ldpgraph
