// Every user of a graph reports her friend list as her device would, with
// the SDK's own edge mechanisms run in-process: what the experiments and
// benchmarks feed the link denoiser (the daemon gets the same reports over
// TLS).
#ifndef LDPGRAPH_DAEMON_LINKLDP_SIMULATED_REPORTS_H_
#define LDPGRAPH_DAEMON_LINKLDP_SIMULATED_REPORTS_H_

#include <cstdint>

#include "graph/csr_graph.h"
#include "ldpgraph/edge_mechanism.h"
#include "linkldp/link_reports.h"

namespace ldpgraph {

// `graph` must be symmetric (each user's row is her friend list). The noise
// is seeded: reproducible, for experiments only. Errors: the mechanism's.
Result<LinkReports> SimulateLinkReports(const CsrGraph& graph, const EdgePolicy& policy, std::uint64_t seed);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_LINKLDP_SIMULATED_REPORTS_H_
