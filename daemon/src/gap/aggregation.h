// GAP's private multi-hop aggregation (PMA, Sajadmanesh et al., USENIX
// Security 2023): from unit-norm rows X^(0), for k = 1..K
//   X^(k) = row-normalise(A^T X^(k-1) + noise)
// where row v of A^T X sums the rows of the nodes that list v. Each row of
// X^(k-1) has norm 1, so one edge moves A^T X by one unit row: L2
// sensitivity 1 for a directed edge, sqrt(2) for an undirected one (both of
// its entries), sqrt(D) for a node whose degree is at most D. The K noisy
// aggregates are computed once and cached: training only reads them.
#ifndef LDPGRAPH_DAEMON_GAP_AGGREGATION_H_
#define LDPGRAPH_DAEMON_GAP_AGGREGATION_H_

#include <vector>

#include "engine/matrix.h"
#include "graph/csr_graph.h"
#include "ldpgraph/random_source.h"
#include "ldpgraph/status.h"

namespace ldpgraph {

// Every row scaled to unit L2 norm (a zero row stays zero).
void NormaliseRows(Matrix* x);

// X^(0) .. X^(K): `x0` must have unit rows (NormaliseRows). Noise of
// standard deviation `noise_stddev` (0: none, the non-private aggregates)
// as discrete Gaussian noise on a fine grid (privacy/discrete_gaussian.h).
// Errors: kInvalidArgument for a size mismatch, hops < 1, a negative or
// non-finite stddev.
Result<std::vector<Matrix>> PrivateMultiHopAggregation(const CsrGraph& graph, Matrix x0, int hops, double noise_stddev,
                                                       RandomSource& rng);

// True when every entry (u, v) has its (v, u): an undirected graph.
bool IsSymmetric(const CsrGraph& graph);

// Each node keeps at most `max_degree` neighbours of an undirected graph:
// edges are taken in a random order and kept while both ends have room, so
// the result is symmetric with every degree <= max_degree (GAP's node-level
// bound). Requires max_degree >= 1.
CsrGraph BoundDegree(const CsrGraph& graph, std::uint32_t max_degree, RandomSource& rng);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_GAP_AGGREGATION_H_
