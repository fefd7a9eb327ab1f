// Link stealing from a node model's outputs (He et al., "Stealing links
// from graph neural networks", USENIX Security 2021, their unsupervised
// attack): two users whose predicted class distributions are alike are
// likely friends. Each pair is scored by the correlation of the two rows of
// probabilities; the attack's AUC counts how well that score ranks true
// edges of the graph above as many random non-edges.
#ifndef LDPGRAPH_DAEMON_AUDIT_LINK_STEALING_H_
#define LDPGRAPH_DAEMON_AUDIT_LINK_STEALING_H_

#include <cstdint>
#include <vector>

#include "audit/link_pairs.h"
#include "engine/matrix.h"
#include "graph/csr_graph.h"
#include "ldpgraph/status.h"

namespace ldpgraph {

struct LinkAttackResult {
  double auc = 0;
  std::uint64_t edges = 0;      // true edges scored
  std::uint64_t non_edges = 0;  // random non-adjacent pairs scored
};

// Scores the pairs with `score` and measures its AUC.
template <typename Score>
LinkAttackResult ScoreLinkPairs(const LinkPairs& pairs, Score&& score) {
  LinkAttackResult r;
  r.auc = ScoreAuc(ScorePairs(pairs.edges, score), ScorePairs(pairs.non_edges, score));
  r.edges = pairs.edges.size();
  r.non_edges = pairs.non_edges.size();
  return r;
}

// Pearson correlation of two rows (0 when either is constant).
double RowCorrelation(const Matrix& probabilities, std::uint32_t u, std::uint32_t v);

// `probabilities`: one row per user of `graph` (symmetric). At most
// `max_edges` true edges (a uniform sample; all when fewer), and as many
// non-edges, drawn from `seed`. Errors: kInvalidArgument for a size
// mismatch or a graph without an edge or a non-edge.
Result<LinkAttackResult> LinkStealingAuc(const Matrix& probabilities, const CsrGraph& graph,
                                         std::uint64_t max_edges, std::uint64_t seed);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_AUDIT_LINK_STEALING_H_
