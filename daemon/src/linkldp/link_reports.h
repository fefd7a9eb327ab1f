// What the server holds of every user's edge report, in the form the edge
// posterior (linkldp/edge_posterior.h) needs: the ids she reported, the two
// probabilities with which her device put another user in the report (given
// that they are friends, and given that they are not), and an estimate of
// her true degree with its variance.
//
// The probabilities are public: they follow from the mechanism's parameters,
// which every report carries (p for RR, p and q for DPRR). The degree
// estimate combines, by inverse variance, what the report's length says
// (unbiased for any RR-based mechanism) and the Laplace degree the device
// sent (DPRR's d*, recovered from q; RR with degree's noisy_degree).
#ifndef LDPGRAPH_DAEMON_LINKLDP_LINK_REPORTS_H_
#define LDPGRAPH_DAEMON_LINKLDP_LINK_REPORTS_H_

#include <cstdint>
#include <vector>

#include "ldpgraph/edge_mechanism.h"
#include "ldpgraph/status.h"
#include "linkldp/report_rows.h"

namespace ldpgraph {

struct LinkReports {
  ReportRows rows;                // row i: the ids user i reported (directed)
  std::vector<double> keep_edge;  // P(i reports j | i and j are friends)
  std::vector<double> keep_non_edge;  // P(i reports j | they are not)
  // Estimate of d_i: the report's evidence, shrunk toward the mean degree
  // (empirical Bayes), clamped to [0, n - 1].
  std::vector<double> degree;
  std::vector<double> degree_variance;  // of the unshrunk estimate (0: exact)

  std::uint32_t num_users() const { return rows.num_users(); }
};

// Collects at most one report per user, in any order.
class LinkReportsBuilder {
 public:
  explicit LinkReportsBuilder(std::uint32_t num_users);

  // Errors: kOutOfRange for a user or id >= n, kInvalidArgument for a
  // second report of a user, a mechanism the posterior cannot use
  // (LocalLap: its values are not an RR row) or parameters outside their
  // ranges; nothing is added then.
  Status Add(std::uint32_t user, const NoisyEdges& report);
  // The reports so far. A user who sent none is no evidence: she reported
  // nobody with t1 = t0 = 0, and her degree is the reporters' mean with an
  // infinite variance (the daemon's graphs are rarely complete).
  LinkReports Finish();

 private:
  std::uint32_t n_;
  ReportRowsBuilder rows_;
  std::vector<bool> seen_;
  LinkReports out_;
};

// The variance of the discrete Laplace noise a device adds to its degree at
// epsilon `eps1`: 2 e^-eps / (1 - e^-eps)^2.
double DiscreteLaplaceVariance(double eps1);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_LINKLDP_LINK_REPORTS_H_
