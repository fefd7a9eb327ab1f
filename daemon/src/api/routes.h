// Every route of the daemon's HTTP API (the device and admin listener; the
// federation's own listener is federation/party_service.h), in one table.
// The router answers 404 for a path no pattern matches and 405 (with Allow)
// for a method its route lacks before any handler runs, so a route missing
// here is never served; docs/openapi.yaml describes exactly these (a test
// compares them both ways).
#ifndef LDPGRAPH_DAEMON_API_ROUTES_H_
#define LDPGRAPH_DAEMON_API_ROUTES_H_

#include <optional>
#include <string>
#include <vector>

#include "net/http_types.h"

namespace ldpgraph {

// The paths other parts name: the listener coalesces answers to reports,
// and admits a held graph's upload from its header.
inline constexpr char kReportsPath[] = "/v1/reports";
inline constexpr char kHeldGraphUploadPrefix[] = "/v1/admin/held-graphs/";

struct Route {
  std::string pattern;               // "/v1/admin/jobs/{job_id}": a {name} is one non-empty segment
  std::vector<std::string> methods;  // "GET", "DELETE"
};

const std::vector<Route>& ApiRoutes();

// The route whose pattern `path` (no query) matches, or null.
const Route* MatchRoute(const std::string& path);

// nullopt when `request` names a route and one of its methods; otherwise
// the answer: 404 not_found, or 405 method_not_allowed with Allow.
std::optional<HttpResponse> CheckRoute(const HttpRequest& request, const std::string& path);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_API_ROUTES_H_
