#include "api/routes.h"

#include <algorithm>

#include "net/json_response.h"

namespace ldpgraph {
namespace {

// Whether `path` matches `pattern` segment by segment.
bool Matches(const std::string& pattern, const std::string& path) {
  std::size_t p = 0, q = 0;
  while (p < pattern.size() && q < path.size()) {
    if (pattern[p] == '{') {
      const std::size_t close = pattern.find('}', p);
      const std::size_t end = path.find('/', q);
      const std::size_t segment_end = end == std::string::npos ? path.size() : end;
      if (segment_end == q) return false;  // an empty segment names nothing
      p = close + 1;
      q = segment_end;
      continue;
    }
    if (pattern[p] != path[q]) return false;
    ++p;
    ++q;
  }
  return p == pattern.size() && q == path.size();
}

std::string Joined(const std::vector<std::string>& methods) {
  std::string out;
  for (const std::string& m : methods) out += (out.empty() ? "" : ", ") + m;
  return out;
}

}  // namespace

const std::vector<Route>& ApiRoutes() {
  static const std::vector<Route> routes = {
      // Devices, and anyone: reports, a graph's public policy, health, metrics.
      {kReportsPath, {"POST"}},
      {"/v1/graphs/{graph_id}", {"GET"}},
      {"/v1/graphs/{graph_id}/result", {"GET"}},
      {"/healthz", {"GET"}},
      {"/readyz", {"GET"}},
      {"/metrics", {"GET"}},
      // The admin (bearer token).
      {"/v1/admin/graphs", {"GET", "POST"}},
      {"/v1/admin/graphs/{graph_id}/tokens", {"POST"}},
      {"/v1/admin/graphs/{graph_id}/rounds", {"GET", "POST"}},
      {"/v1/admin/graphs/{graph_id}/label", {"PUT"}},
      {"/v1/admin/graphs/{graph_id}/symmetrise", {"PUT"}},
      {"/v1/admin/jobs", {"GET", "POST"}},
      {"/v1/admin/jobs/{job_id}", {"GET", "DELETE"}},
      {"/v1/admin/models", {"GET"}},
      {"/v1/admin/models/{version}/predict", {"POST"}},
      {"/v1/admin/held-graphs", {"GET"}},
      {"/v1/admin/held-graphs/{graph_id}", {"PUT", "DELETE"}},
      {"/v1/admin/gw", {"POST"}},
      {"/v1/admin/gw/nearest", {"POST"}},
      {"/v1/admin/federation/runs", {"GET", "POST"}},
      {"/v1/admin/federation/runs/{run}", {"GET", "DELETE"}},
      {"/v1/admin/federation/models", {"GET"}},
      {"/v1/admin/federation/models/{run}", {"GET"}},
      {"/v1/admin/federation/models/{run}/predict", {"POST"}},
  };
  return routes;
}

const Route* MatchRoute(const std::string& path) {
  for (const Route& r : ApiRoutes()) {
    if (Matches(r.pattern, path)) return &r;
  }
  return nullptr;
}

std::optional<HttpResponse> CheckRoute(const HttpRequest& request, const std::string& path) {
  const Route* route = MatchRoute(path);
  if (route == nullptr) return ErrorResponse(404, "not_found", "nothing is served at " + path);
  if (std::find(route->methods.begin(), route->methods.end(), request.method) == route->methods.end()) {
    return MethodNotAllowed(request, path, Joined(route->methods).c_str());
  }
  return std::nullopt;
}

}  // namespace ldpgraph
