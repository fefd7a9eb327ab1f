#include "linkldp/simulated_reports.h"

#include "ldpgraph/edge_randomizers.h"
#include "ldpgraph/random_source.h"

namespace ldpgraph {

Result<LinkReports> SimulateLinkReports(const CsrGraph& graph, const EdgePolicy& policy, std::uint64_t seed) {
  const std::uint32_t n = graph.num_nodes();
  Result<std::unique_ptr<EdgeRandomizer>> randomizer = MakeEdgeRandomizer(n, policy);
  if (!randomizer.ok()) return randomizer.status();
  SeededRandomSource rng(seed);
  LinkReportsBuilder builder(n);
  NoisyEdges report;
  for (std::uint32_t u = 0; u < n; ++u) {
    LDPGRAPH_RETURN_IF_ERROR((*randomizer)->Perturb(u, graph.neighbours(u), rng, &report));
    LDPGRAPH_RETURN_IF_ERROR(builder.Add(u, report));
  }
  return builder.Finish();
}

}  // namespace ldpgraph
