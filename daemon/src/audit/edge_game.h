// The edge-inclusion game: the differential-privacy game played on a real
// graph, many edges at once. Target edges are drawn from the graph, each
// kept with probability 1/2 and otherwise removed before anything private
// runs; an attack then scores every target from what was released, and its
// AUC of kept over removed targets is what edge-level DP bounds
// (audit/auc_bounds.h). Every target is a true edge, so what friends share
// (classes, features) raises the kept and the removed alike: unlike the
// usual edges-against-random-pairs AUC, homophily alone gives 1/2 here.
//
// The targets form a matching (no two share a user). Under edge LDP each
// target's score then reads its own two users' reports, independent of
// every other target's, and the AUC over the targets is an unbiased
// estimate of one edge's test: the bound is exact. A model or a denoiser
// mixes users, so scores of different targets depend on each other a
// little; the bound is then the single edge's, and the AUC estimates the
// average single-edge test.
#ifndef LDPGRAPH_DAEMON_AUDIT_EDGE_GAME_H_
#define LDPGRAPH_DAEMON_AUDIT_EDGE_GAME_H_

#include <cstdint>
#include <vector>

#include "audit/link_pairs.h"
#include "graph/csr_graph.h"
#include "ldpgraph/status.h"

namespace ldpgraph {

struct EdgeGame {
  CsrGraph graph;                 // the true graph without the removed targets
  std::vector<UserPair> kept;     // targets still in `graph` (u < v)
  std::vector<UserPair> removed;  // targets taken out of it
};

// Draws at most `targets` target edges of `graph` (symmetric) as a random
// matching and flips a fair coin for each, from `seed`. Errors:
// kInvalidArgument for targets < 2 or a graph with fewer than 2 edges.
Result<EdgeGame> PlayEdgeGame(const CsrGraph& graph, std::uint32_t targets, std::uint64_t seed);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_AUDIT_EDGE_GAME_H_
