// Does a decoded report fit the graph it claims? Two separate answers, as the
// ingest API gives them separate statuses:
//   CheckReportRanges:  user and neighbour ids inside the graph (else 400);
//   CheckReportPolicy:  mechanism and parameters exactly those the graph's
//                       public policy prescribes (else 422).
// Parameters are compared with a relative tolerance of 1e-9: a device's libm
// may round exp() differently in the last place, never by more.
#ifndef LDPGRAPH_DAEMON_API_POLICY_CHECK_H_
#define LDPGRAPH_DAEMON_API_POLICY_CHECK_H_

#include "ldpgraph/graph_config.h"
#include "ldpgraph/report.h"

namespace ldpgraph {

// The parameters a graph's policy fixes beyond its config: derived once,
// when the graph is registered, rather than for every report.
struct PolicyExpectation {
  double p = 1;     // RR and DPRR: the probability of keeping a bit
  double eps1 = 0;  // DPRR and LocalLap: the budget split
  double eps2 = 0;
  std::uint32_t sampled_feature_dims = 0;  // multi-bit m
};

// Errors: those of building the graph's mechanisms (kInvalidArgument).
Result<PolicyExpectation> ExpectPolicy(const GraphConfig& graph);

// Errors: kOutOfRange naming the id.
Status CheckReportRanges(const Report& report, const GraphConfig& graph);

// `expected` is ExpectPolicy(graph). Errors: kInvalidArgument naming the
// parameter, its value and the expected one.
Status CheckReportPolicy(const Report& report, const GraphConfig& graph, const PolicyExpectation& expected);

// A graph collected in rounds takes reports of round 1 on (ReportRound), one
// collected once round 0 only (ReportOnce). Which round is open is the
// store's check. Errors: kInvalidArgument.
Status CheckReportRound(const Report& report, bool in_rounds);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_API_POLICY_CHECK_H_
