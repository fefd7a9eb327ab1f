// POST /v1/reports: authenticate, validate, store, answer. Every refusal has
// its own status and leaves the store unchanged:
//   401 no or forged token        403 token of another graph or user
//   413 body too large (network)  400 malformed, wrong version, id out of range
//   404 unknown graph             422 parameters off the graph's policy
//   409 a different report for a (graph, user) that already has one
//   429 rate limited (Retry-After) 503 store unavailable or daemon draining
// The same report again is 200 with outcome "duplicate": retries are free.
// A batch (wire "LB") gets one result per report and 207 when they differ.
#ifndef LDPGRAPH_DAEMON_API_REPORT_INGEST_H_
#define LDPGRAPH_DAEMON_API_REPORT_INGEST_H_

#include "api/service_context.h"
#include "net/http_types.h"

namespace ldpgraph {

void IngestReports(ServiceContext& ctx, const HttpRequest& request, Respond respond);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_API_REPORT_INGEST_H_
