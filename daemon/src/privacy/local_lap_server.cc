#include "privacy/local_lap_server.h"

#include <algorithm>
#include <cmath>

#include "ldpgraph/samplers.h"

namespace ldpgraph {

Result<CsrGraph> AssembleLocalLap(Span<const NoisyEdges> reports, RandomSource& rng) {
  const auto n = static_cast<std::uint32_t>(reports.size());
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
  std::vector<bool> is_private(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    const NoisyEdges& r = reports[i];
    if (r.mechanism == EdgeMechanism::kLocalLap) {
      if (r.values.size() + 1 != n) {
        return Status::InvalidArgument("LocalLap report of user " + std::to_string(i) + " has " +
                                       std::to_string(r.values.size()) + " values for " +
                                       std::to_string(n) + " users");
      }
      is_private[i] = true;
    } else if (r.mechanism != EdgeMechanism::kNone) {
      return Status::InvalidArgument("LocalLap assembly got a " +
                                     std::string(EdgeMechanismName(r.mechanism)) + " report");
    }
  }
  // Known edges from non-private lists; count those that reach a private user.
  double private_degree_sum = 0;
  std::uint64_t known_to_private = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (is_private[i]) {
      private_degree_sum += static_cast<double>(reports[i].noisy_degree);
      continue;
    }
    for (std::uint32_t v : reports[i].neighbours) {
      if (v >= n) return Status::InvalidArgument("neighbour id out of range");
      if (is_private[v]) ++known_to_private;
      if (is_private[v] || i < v) edges.emplace_back(i, v);
    }
  }
  std::vector<std::uint32_t> priv;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (is_private[i]) priv.push_back(i);
  }
  const double pairs = static_cast<double>(priv.size()) * (priv.size() - 1.0) / 2.0;
  const double t_real = std::floor((private_degree_sum - static_cast<double>(known_to_private)) / 2.0);
  const auto target = static_cast<std::uint64_t>(std::clamp(t_real, 0.0, pairs));

  if (target > 0) {
    // value of the pair (i < j) is row i's value for j; slot of j in row i skips i itself.
    auto value = [&](std::uint32_t i, std::uint32_t j) { return reports[i].values[j - 1]; };
    std::vector<std::int64_t> all;
    all.reserve(static_cast<std::size_t>(pairs));
    for (std::size_t a = 0; a < priv.size(); ++a) {
      for (std::size_t b = a + 1; b < priv.size(); ++b) all.push_back(value(priv[a], priv[b]));
    }
    // The threshold: the target-th largest value.
    std::nth_element(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(target - 1), all.end(),
                     std::greater<std::int64_t>());
    const std::int64_t threshold = all[target - 1];
    std::uint64_t above = 0, ties = 0;
    for (auto v : all) {
      above += v > threshold;
      ties += v == threshold;
    }
    std::vector<std::uint32_t> chosen;  // which of the tied pairs to keep, uniformly
    if (ties > 0xFFFFFFFFull) return Status::ResourceExhausted("too many tied LocalLap values");
    Status s = SampleSubsetAvoiding(rng, static_cast<std::uint32_t>(ties), {}, target - above, &chosen);
    if (!s.ok()) return s;
    std::uint64_t tie_index = 0;
    std::size_t next_chosen = 0;
    for (std::size_t a = 0; a < priv.size(); ++a) {
      for (std::size_t b = a + 1; b < priv.size(); ++b) {
        const std::int64_t v = value(priv[a], priv[b]);
        if (v > threshold) {
          edges.emplace_back(priv[a], priv[b]);
        } else if (v == threshold) {
          if (next_chosen < chosen.size() && chosen[next_chosen] == tie_index) {
            edges.emplace_back(priv[a], priv[b]);
            ++next_chosen;
          }
          ++tie_index;
        }
      }
    }
  }
  return CsrGraph::FromUndirectedEdges(n, edges);
}

}  // namespace ldpgraph
