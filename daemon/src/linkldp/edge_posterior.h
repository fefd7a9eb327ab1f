// The posterior probability that two users are friends, given both users'
// reports and a prior (Blink's Bayesian estimation, made near-linear).
//
// For a pair (i, j) the evidence is two bits: whether i reported j, and
// whether j reported i. Each device reports a friend with probability t1
// and anyone else with t0 (LinkReports), independently, so the likelihood
// ratio of "friends" against "not friends" is
//   LR = f(b_ij; t1_i, t0_i) * f(b_ji; t1_j, t0_j),  f(1) = t1/t0, f(0) = (1-t1)/(1-t0),
// and posterior odds = prior odds * LR.
//
// Only pairs that at least one end reported are candidates. A pair neither
// end reported has LR = f(0) f(0) < 1: its posterior is below its prior
// (under 1e-3 on every graph we run), and the n^2 of them would make the
// estimate quadratic. So the work and memory are linear in the reported
// entries, whatever n is.
#ifndef LDPGRAPH_DAEMON_LINKLDP_EDGE_POSTERIOR_H_
#define LDPGRAPH_DAEMON_LINKLDP_EDGE_POSTERIOR_H_

#include <cstdint>
#include <vector>

#include "graph/csr_graph.h"
#include "linkldp/link_reports.h"

namespace ldpgraph {

// The candidate pairs, symmetric: row i lists every j such that i reported
// j or j reported i; the pair appears in both rows.
struct CandidatePairs {
  CsrGraph pairs;
  // Per entry of `pairs`: bit 0 set when the row's user reported the
  // column's, bit 1 when the column's reported the row's.
  std::vector<std::uint8_t> bits;
  // Per entry: the index of the same pair's entry in the other row.
  std::vector<std::uint64_t> mirror;
};

// O(n + entries) time and memory.
CandidatePairs CollectCandidates(const LinkReports& reports);

// log LR of the entry `e` of row i (the pair's bits as the entry holds them).
double LogLikelihoodRatio(const LinkReports& reports, std::uint32_t i, std::uint32_t j, std::uint8_t bits);

// Posterior probability of every candidate entry, from the prior log-odds
// `prior_log_odds(i, j, entry)` and the reports. Both entries of a pair get
// the same value.
template <typename PriorLogOdds>
std::vector<float> EdgePosterior(const LinkReports& reports, const CandidatePairs& candidates,
                                 const PriorLogOdds& prior_log_odds);

}  // namespace ldpgraph

#include "linkldp/edge_posterior_inl.h"

#endif  // LDPGRAPH_DAEMON_LINKLDP_EDGE_POSTERIOR_H_
