// The daemon's HTTP API, routed. Transport-free: the network layer hands it
// an HttpRequest; tests and the fuzzer call it directly.
//   POST /v1/reports        report_ingest.h
//   GET  /v1/graphs/{id}    the public graph configuration (JSON)
//   /v1/admin/...           admin_api.h
//   GET  /healthz           liveness: 200 {"status":"ok"}; 503 while draining
//   GET  /readyz            readiness: 200 {"status":"ready"}; 503 while
//                           draining or while the store cannot commit
//   GET  /metrics           Prometheus text format
#ifndef LDPGRAPH_DAEMON_API_API_H_
#define LDPGRAPH_DAEMON_API_API_H_

#include "api/service_context.h"
#include "net/http_types.h"

namespace ldpgraph {

// `request` by value: a long request moves it to the query worker (a held
// graph's body can be 256 MB).
void HandleRequest(ServiceContext& ctx, HttpRequest request, Respond respond);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_API_API_H_
