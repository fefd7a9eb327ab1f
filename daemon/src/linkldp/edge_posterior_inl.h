// EdgePosterior's template body (edge_posterior.h): the prior is a callable
// so that the degree prior and the learned prior share one loop.
#ifndef LDPGRAPH_DAEMON_LINKLDP_EDGE_POSTERIOR_INL_H_
#define LDPGRAPH_DAEMON_LINKLDP_EDGE_POSTERIOR_INL_H_

#include <cmath>

namespace ldpgraph {

template <typename PriorLogOdds>
std::vector<float> EdgePosterior(const LinkReports& reports, const CandidatePairs& candidates,
                                 const PriorLogOdds& prior_log_odds) {
  const CsrGraph& g = candidates.pairs;
  std::vector<float> posterior(g.num_entries());
  const auto& offsets = g.offsets();
  const auto& targets = g.targets();
  const auto n = static_cast<std::int64_t>(g.num_nodes());
#pragma omp parallel for schedule(dynamic, 256)
  for (std::int64_t row = 0; row < n; ++row) {
    const auto i = static_cast<std::uint32_t>(row);
    for (std::uint64_t e = offsets[i]; e < offsets[i + 1]; ++e) {
      const std::uint32_t j = targets[e];
      if (j < i) continue;  // the pair is done once, from its smaller end
      const double log_odds = prior_log_odds(i, j, e) + LogLikelihoodRatio(reports, i, j, candidates.bits[e]);
      const auto p = static_cast<float>(1.0 / (1.0 + std::exp(-log_odds)));
      posterior[e] = p;
      posterior[candidates.mirror[e]] = p;
    }
  }
  return posterior;
}

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_LINKLDP_EDGE_POSTERIOR_INL_H_
