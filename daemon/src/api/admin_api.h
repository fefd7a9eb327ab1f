// /v1/admin/...: behind the admin bearer token (compared in constant time).
//   POST /v1/admin/graphs                 create a graph from its JSON config (201; 409 if it exists)
//   GET  /v1/admin/graphs                 every graph with its config and report count
//   POST /v1/admin/graphs/{id}/tokens     user tokens: {"users": [ids]} or {"first": a, "count": c}
// and the learning resources of learning_api.h (labels, training jobs, models).
#ifndef LDPGRAPH_DAEMON_API_ADMIN_API_H_
#define LDPGRAPH_DAEMON_API_ADMIN_API_H_

#include "api/service_context.h"
#include "net/http_types.h"

namespace ldpgraph {

// `path` is the target without the query. Answers 404/405 for what it does not serve.
HttpResponse HandleAdmin(ServiceContext& ctx, const HttpRequest& request, const std::string& path);

// Whether `request` carries the admin bearer token (compared in constant time).
bool AdminAuthorized(const ServiceContext& ctx, const HttpRequest& request);

// Most tokens one request may ask for.
constexpr std::uint64_t kMaxTokensPerRequest = 100000;

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_API_ADMIN_API_H_
