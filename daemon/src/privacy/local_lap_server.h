// The server part of LocalLap (DPRR paper, Section V-A): from the users'
// noisy degrees and noisy values, keep the T largest entries of the upper
// triangle as edges, T = floor(sum of noisy degrees / 2).
//
// Customized setting (some users non-private): an edge with a non-private
// endpoint is known exactly from her true list, so only private-private
// pairs are selected, and T counts only them:
//   T = floor((sum over private i of d*_i - known private/non-private edges) / 2).
// The reference code instead counts the known edges inside T and keeps them
// too, overcounting; we implement the paper's intent.
#ifndef LDPGRAPH_DAEMON_PRIVACY_LOCAL_LAP_SERVER_H_
#define LDPGRAPH_DAEMON_PRIVACY_LOCAL_LAP_SERVER_H_

#include <vector>

#include "graph/csr_graph.h"
#include "ldpgraph/edge_mechanism.h"
#include "ldpgraph/random_source.h"
#include "ldpgraph/span.h"

namespace ldpgraph {

// `reports[i]` is user i's output: kLocalLap (private) or kNone (her true
// list). Ties at the threshold are broken uniformly at random with `rng`.
// Memory O(p^2) for p private users, as the mechanism itself is.
// Errors: kInvalidArgument if a report has another mechanism or a wrong
// number of values.
Result<CsrGraph> AssembleLocalLap(Span<const NoisyEdges> reports, RandomSource& rng);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_PRIVACY_LOCAL_LAP_SERVER_H_
