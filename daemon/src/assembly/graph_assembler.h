// Graph assembly: the daemon's view of one graph, built from the reports it
// has stored. Rows are the noisy lists as the users reported them (then
// symmetrised by the graph's rule), features are the multi-bit rectifier's
// unbiased estimates (held as the m dimensions each user sent), labels the randomized ones. A user who sent nothing is
// an isolated node with no label and the features' midpoint. The server
// never sees anything but reports, so nothing here touches a true edge.
//
// Cost: one pass over the stored reports, linear in reports plus edges; the
// report bytes are decoded one at a time and never held together (except
// LocalLap's, whose server step needs every user's n - 1 values at once).
#ifndef LDPGRAPH_DAEMON_ASSEMBLY_GRAPH_ASSEMBLER_H_
#define LDPGRAPH_DAEMON_ASSEMBLY_GRAPH_ASSEMBLER_H_

#include <atomic>

#include <cstdint>
#include <vector>

#include "engine/node_features.h"
#include "graph/csr_graph.h"
#include "graph/symmetrise.h"
#include "ldpgraph/graph_config.h"
#include "ldpgraph/random_source.h"
#include "linkldp/link_reports.h"
#include "store/report_store.h"

namespace ldpgraph {

struct AssembledGraph {
  std::uint64_t graph_id = 0;
  CsrGraph adjacency;             // num_users rows
  // num_users x dims, factored (engine/factored_features.h: the reported
  // dimensions plus the midpoints); empty without a feature policy.
  NodeFeatures features;
  std::vector<int> labels;        // one per user; -1: no report or no label
  std::uint32_t reporters = 0;    // users with a stored report
  std::uint64_t reported_entries = 0;  // neighbour entries as reported, before symmetrising
  double seconds = 0;
};

// With `link_reports`, the same pass also collects the edge reports as the
// link denoiser takes them (linkldp/link_reports.h); the graph's mechanism
// must then be an RR-based one (rr, dprr, rr-degree).
// `round`: the graph as of that round of a graph collected in rounds (each
// user's newest report up to it), kNewestRound for the newest reports.
// Errors: kDataLoss naming the user when a stored report does not decode or
// does not belong to this graph (the store held something ingest never
// accepted); kFailedPrecondition for link reports of LocalLap or
// unperturbed edges, or when `cancel` was set (checked at every report and
// every 2^16 rows: a graph of 10^9 users stops within a moment); the
// store's own errors.
Result<AssembledGraph> AssembleGraph(const GraphConfig& config, ReportStore* store, Symmetrisation rule,
                                     RandomSource& rng, LinkReports* link_reports = nullptr,
                                     const std::atomic<bool>* cancel = nullptr,
                                     std::uint32_t round = kNewestRound);

// The error AssembleGraph returns when cancelled.
Status AssemblyCancelled();

// Whether the link denoiser can use this mechanism's reports.
bool DenoisableMechanism(EdgeMechanism mechanism);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_ASSEMBLY_GRAPH_ASSEMBLER_H_
