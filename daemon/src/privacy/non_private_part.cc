#include "privacy/non_private_part.h"

#include <cmath>

#include "ldpgraph/samplers.h"

namespace ldpgraph {

Result<GraphDataset> KeepNonPrivateUsers(const GraphDataset& input, double non_private_fraction,
                                         std::uint64_t seed, std::uint64_t* kept_entries) {
  if (!(non_private_fraction >= 0.0 && non_private_fraction <= 1.0)) {
    return Status::InvalidArgument("the non-private fraction must be in [0, 1]");
  }
  SeededRandomSource rng(seed);
  GraphDataset out = input;
  out.graphs.clear();
  *kept_entries = 0;
  std::vector<std::uint32_t> chosen;
  for (const CsrGraph& graph : input.graphs) {
    const std::uint32_t n = graph.num_nodes();
    const auto k = static_cast<std::uint64_t>(std::llround(non_private_fraction * n));
    chosen.clear();  // the sampler appends, in increasing order
    LDPGRAPH_RETURN_IF_ERROR(SampleSubsetAvoiding(rng, n, {}, k, &chosen));
    // New id of every kept user; kDropped for the private ones.
    constexpr std::uint32_t kDropped = ~std::uint32_t{0};
    std::vector<std::uint32_t> renumber(n, kDropped);
    for (std::uint32_t i = 0; i < chosen.size(); ++i) renumber[chosen[i]] = i;
    CsrGraph sub;
    std::vector<std::uint32_t> row;
    for (std::uint32_t u : chosen) {
      row.clear();
      for (std::uint32_t v : graph.neighbours(u)) {
        if (renumber[v] != kDropped) row.push_back(renumber[v]);  // increasing, as v is
      }
      sub.AppendRow(row);
    }
    *kept_entries += sub.num_entries();
    out.graphs.push_back(std::move(sub));
  }
  return out;
}

}  // namespace ldpgraph
