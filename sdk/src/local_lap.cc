#include "ldpgraph/local_lap.h"

#include "internal/memoised_rr.h"
#include "internal/validation.h"

namespace ldpgraph {

Result<LocalLapClient> LocalLapClient::Create(std::uint32_t n, double epsilon,
                                              BudgetAllocation allocation, std::uint32_t n_max,
                                              std::uint32_t resolution) {
  LocalLapClient c;
  LDPGRAPH_RETURN_IF_ERROR(c.budget_.Set(n, epsilon, allocation, n_max));
  if (resolution < 1 || resolution > (1u << 20)) {
    return Status::InvalidArgument("LocalLap resolution must be in [1, 2^20], got " +
                                   std::to_string(resolution));
  }
  // Sensitivity of a lattice value is `resolution`, hence eps2 / resolution.
  Result<DiscreteLaplace> value_noise = DiscreteLaplace::Create(c.budget_.split().eps2 / resolution);
  if (!value_noise.ok()) return value_noise.status();
  c.resolution_ = resolution;
  c.value_noise_ = *value_noise;
  return c;
}

void LocalLapClient::Describe(NoisyEdges* out) const {
  budget_.Describe(EdgeMechanism::kLocalLap, out);
  out->resolution = resolution_;
  out->neighbours.clear();
}

template <typename Noise>
void LocalLapClient::FillValues(std::uint32_t user, const std::vector<std::uint32_t>& sorted, const Noise& noise,
                                NoisyEdges* out) const {
  const std::uint32_t n = budget_.num_users();
  out->values.resize(n - 1);
  std::size_t next = 0;  // next true neighbour in `sorted`
  std::size_t slot = 0;
  for (std::uint32_t j = 0; j < n; ++j) {
    if (j == user) continue;
    const bool bit = next < sorted.size() && sorted[next] == j;
    if (bit) ++next;
    out->values[slot++] = (bit ? std::int64_t{resolution_} : 0) + noise(j, bit);
  }
}

Status LocalLapClient::Perturb(std::uint32_t user, Span<const std::uint32_t> neighbours,
                               RandomSource& rng, NoisyEdges* out) const {
  std::vector<std::uint32_t> sorted;
  LDPGRAPH_RETURN_IF_ERROR(internal::SortAndCheckNeighbours(budget_.num_users(), user, neighbours, &sorted));
  Describe(out);
  out->noisy_degree = static_cast<std::int64_t>(sorted.size()) + budget_.degree_noise().Sample(rng);
  FillValues(user, sorted, [&](std::uint32_t, bool) { return value_noise_.Sample(rng); }, out);
  return Status::Ok();
}

Status LocalLapClient::PerturbMemoised(std::uint32_t user, Span<const std::uint32_t> neighbours,
                                       const PermanentCoins& coins, NoisyEdges* out) const {
  std::vector<std::uint32_t> sorted;
  LDPGRAPH_RETURN_IF_ERROR(internal::SortAndCheckNeighbours(budget_.num_users(), user, neighbours, &sorted));
  Describe(out);
  out->noisy_degree = internal::MemoisedNoisyDegree(coins, budget_.degree_noise(), sorted.size());
  FillValues(user, sorted, [&](std::uint32_t j, bool bit) {
    CoinStream coin = coins.Coin(CoinPurpose::kLocalLapValue, 0, std::uint64_t{j} << 1 | (bit ? 1u : 0u));
    return value_noise_.Sample(coin);
  }, out);
  return Status::Ok();
}

}  // namespace ldpgraph
