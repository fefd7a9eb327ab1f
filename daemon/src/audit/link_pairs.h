// The pairs a link attack is scored on: true edges of a graph against as
// many pairs that are not edges, and the AUC of a score that should rank
// the first above the second.
#ifndef LDPGRAPH_DAEMON_AUDIT_LINK_PAIRS_H_
#define LDPGRAPH_DAEMON_AUDIT_LINK_PAIRS_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "graph/csr_graph.h"
#include "ldpgraph/status.h"

namespace ldpgraph {

using UserPair = std::pair<std::uint32_t, std::uint32_t>;

struct LinkPairs {
  std::vector<UserPair> edges;      // u < v
  std::vector<UserPair> non_edges;  // as many, never adjacent, never u == v
};

// How the non-edges are drawn: both users uniformly at random, or (kSameSource)
// the first user of the matching edge with a random user she is not a friend
// of, so that an attack which probes one user per pair (LinkTeller) scores
// an edge and a non-edge from each probe.
enum class NonEdgeDraw { kUniform, kSameSource };

// At most `max_edges` true edges of `graph` (symmetric; a uniform sample,
// all when fewer) and as many non-edges, drawn from `seed`. Errors:
// kInvalidArgument for a graph without an edge, a complete graph, or
// (kSameSource) edges whose users are friends with everyone.
Result<LinkPairs> SampleLinkPairs(const CsrGraph& graph, std::uint64_t max_edges, std::uint64_t seed,
                                  NonEdgeDraw draw = NonEdgeDraw::kUniform);

bool Adjacent(const CsrGraph& graph, std::uint32_t u, std::uint32_t v);

// score(u, v) of every pair, in order.
template <typename Score>
std::vector<double> ScorePairs(const std::vector<UserPair>& pairs, Score&& score) {
  std::vector<double> scores;
  scores.reserve(pairs.size());
  for (const UserPair& p : pairs) scores.push_back(score(p.first, p.second));
  return scores;
}

// The AUC of `positive` scores over `negative` ones (ties count half).
double ScoreAuc(const std::vector<double>& positive, const std::vector<double>& negative);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_AUDIT_LINK_PAIRS_H_
