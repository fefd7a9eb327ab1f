#include "net/json_response.h"

#include "net/logger.h"

namespace ldpgraph {

std::string ErrorJson(const std::string& reason, const std::string& message) {
  return "{\"error\":" + JsonQuote(reason) + ",\"message\":" + JsonQuote(message) + "}";
}

HttpResponse ErrorResponse(int status, const std::string& reason, const std::string& message) {
  HttpResponse r = JsonResponse(status, ErrorJson(reason, message));
  r.reason = reason;
  return r;
}

std::optional<std::uint64_t> ParseGraphId(const std::string& text) {
  if (text.empty() || text.size() > 20) return std::nullopt;
  std::uint64_t id = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    const std::uint64_t digit = static_cast<std::uint64_t>(c - '0');
    if (id > (UINT64_MAX - digit) / 10) return std::nullopt;  // would not fit 64 bits
    id = id * 10 + digit;
  }
  return id;
}

HttpResponse MethodNotAllowed(const HttpRequest& request, const std::string& path, const char* allow) {
  HttpResponse r = ErrorResponse(405, "method_not_allowed", request.method + " is not served at " + path);
  r.headers.emplace_back("Allow", allow);
  return r;
}

std::optional<std::string> PathParameter(const std::string& path, const std::string& prefix,
                                         const std::string& suffix) {
  if (path.size() <= prefix.size() + suffix.size() || path.compare(0, prefix.size(), prefix) != 0 ||
      path.compare(path.size() - suffix.size(), suffix.size(), suffix) != 0) {
    return std::nullopt;
  }
  return path.substr(prefix.size(), path.size() - prefix.size() - suffix.size());
}

HttpResponse JsonResponse(int status, std::string json) {
  HttpResponse r;
  r.status = status;
  r.body = std::move(json);
  r.body.push_back('\n');
  return r;
}

}  // namespace ldpgraph
