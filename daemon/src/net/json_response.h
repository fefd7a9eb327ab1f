// Small helpers for the API's answers and routes.
#ifndef LDPGRAPH_DAEMON_NET_JSON_RESPONSE_H_
#define LDPGRAPH_DAEMON_NET_JSON_RESPONSE_H_

#include <cstdint>
#include <optional>
#include <string>

#include "net/http_types.h"

namespace ldpgraph {

// {"error": reason, "message": message}: the body of every refusal.
std::string ErrorJson(const std::string& reason, const std::string& message);
// That body with `status`.
HttpResponse ErrorResponse(int status, const std::string& reason, const std::string& message);

// A graph id as it appears in a path: 1 to 20 decimal digits that fit 64
// bits, nothing else (no sign, no spaces).
std::optional<std::uint64_t> ParseGraphId(const std::string& text);
HttpResponse JsonResponse(int status, std::string json);
// 405 with the Allow header naming what `path` serves.
HttpResponse MethodNotAllowed(const HttpRequest& request, const std::string& path, const char* allow);
// X when `path` is prefix + X + suffix with X non-empty (an id in a route
// such as /v1/admin/graphs/{id}/label); nullopt otherwise.
std::optional<std::string> PathParameter(const std::string& path, const std::string& prefix,
                                         const std::string& suffix);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_NET_JSON_RESPONSE_H_
