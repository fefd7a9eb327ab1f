#include "ldpgraph/local_lap.h"

#include "internal/memoised_rr.h"
#include "internal/validation.h"

namespace ldpgraph {

Result<LocalLapClient> LocalLapClient::Create(std::uint32_t n, double epsilon,
                                              BudgetAllocation allocation, std::uint32_t n_max,
                                              std::uint32_t resolution) {
  LDPGRAPH_RETURN_IF_ERROR(internal::CheckNumUsersAndBound(n, &n_max));
  if (resolution < 1 || resolution > (1u << 20)) {
    return Status::InvalidArgument("LocalLap resolution must be in [1, 2^20], got " +
                                   std::to_string(resolution));
  }
  Result<BudgetSplit> split = AllocateBudget(epsilon, allocation, n_max);
  if (!split.ok()) return split.status();
  Result<DiscreteLaplace> degree_noise = DiscreteLaplace::Create(split->eps1);
  if (!degree_noise.ok()) return degree_noise.status();
  // Sensitivity of a lattice value is `resolution`, hence eps2 / resolution.
  Result<DiscreteLaplace> value_noise = DiscreteLaplace::Create(split->eps2 / resolution);
  if (!value_noise.ok()) return value_noise.status();

  LocalLapClient c;
  c.n_ = n;
  c.epsilon_ = epsilon;
  c.allocation_ = allocation;
  c.split_ = *split;
  c.resolution_ = resolution;
  c.degree_noise_ = *degree_noise;
  c.value_noise_ = *value_noise;
  return c;
}

void LocalLapClient::Describe(NoisyEdges* out) const {
  out->mechanism = EdgeMechanism::kLocalLap;
  out->allocation = allocation_;
  out->epsilon = epsilon_;
  out->eps1 = split_.eps1;
  out->eps2 = split_.eps2;
  out->p = 1.0;
  out->q = 1.0;
  out->resolution = resolution_;
  out->neighbours.clear();
}

template <typename Noise>
void LocalLapClient::FillValues(std::uint32_t user, const std::vector<std::uint32_t>& sorted, const Noise& noise,
                                NoisyEdges* out) const {
  out->values.resize(n_ - 1);
  std::size_t next = 0;  // next true neighbour in `sorted`
  std::size_t slot = 0;
  for (std::uint32_t j = 0; j < n_; ++j) {
    if (j == user) continue;
    const bool bit = next < sorted.size() && sorted[next] == j;
    if (bit) ++next;
    out->values[slot++] = (bit ? std::int64_t{resolution_} : 0) + noise(j, bit);
  }
}

Status LocalLapClient::Perturb(std::uint32_t user, Span<const std::uint32_t> neighbours,
                               RandomSource& rng, NoisyEdges* out) const {
  std::vector<std::uint32_t> sorted;
  LDPGRAPH_RETURN_IF_ERROR(internal::SortAndCheckNeighbours(n_, user, neighbours, &sorted));
  Describe(out);
  out->noisy_degree = static_cast<std::int64_t>(sorted.size()) + degree_noise_.Sample(rng);
  FillValues(user, sorted, [&](std::uint32_t, bool) { return value_noise_.Sample(rng); }, out);
  return Status::Ok();
}

Status LocalLapClient::PerturbMemoised(std::uint32_t user, Span<const std::uint32_t> neighbours,
                                       const PermanentCoins& coins, NoisyEdges* out) const {
  std::vector<std::uint32_t> sorted;
  LDPGRAPH_RETURN_IF_ERROR(internal::SortAndCheckNeighbours(n_, user, neighbours, &sorted));
  Describe(out);
  out->noisy_degree = internal::MemoisedNoisyDegree(coins, degree_noise_, sorted.size());
  FillValues(user, sorted, [&](std::uint32_t j, bool bit) {
    CoinStream coin = coins.Coin(CoinPurpose::kLocalLapValue, 0, std::uint64_t{j} << 1 | (bit ? 1u : 0u));
    return value_noise_.Sample(coin);
  }, out);
  return Status::Ok();
}

}  // namespace ldpgraph
