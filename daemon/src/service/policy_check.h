// Does a decoded report fit the graph it claims? Two separate answers, as the
// ingest API gives them separate statuses:
//   CheckReportRanges:  user and neighbour ids inside the graph (else 400);
//   CheckReportPolicy:  mechanism and parameters exactly those the graph's
//                       public policy prescribes (else 422).
// Parameters are compared with a relative tolerance of 1e-9: a device's libm
// may round exp() differently in the last place, never by more.
#ifndef LDPGRAPH_DAEMON_SERVICE_POLICY_CHECK_H_
#define LDPGRAPH_DAEMON_SERVICE_POLICY_CHECK_H_

#include "ldpgraph/graph_config.h"
#include "ldpgraph/report.h"

namespace ldpgraph {

// Errors: kOutOfRange naming the id.
Status CheckReportRanges(const Report& report, const GraphConfig& graph);

// Errors: kInvalidArgument naming the parameter, its value and the expected one.
Status CheckReportPolicy(const Report& report, const GraphConfig& graph);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_SERVICE_POLICY_CHECK_H_
