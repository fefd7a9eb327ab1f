#include "service/json_response.h"

#include "service/logger.h"

namespace ldpgraph {

std::string ErrorJson(const std::string& reason, const std::string& message) {
  return "{\"error\":" + JsonQuote(reason) + ",\"message\":" + JsonQuote(message) + "}";
}

HttpResponse ErrorResponse(int status, const std::string& reason, const std::string& message) {
  return JsonResponse(status, ErrorJson(reason, message));
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

HttpResponse JsonResponse(int status, std::string json) {
  HttpResponse r;
  r.status = status;
  r.body = std::move(json);
  r.body.push_back('\n');
  return r;
}

}  // namespace ldpgraph
