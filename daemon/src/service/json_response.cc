#include "service/json_response.h"

#include "service/logger.h"

namespace ldpgraph {

HttpResponse ErrorResponse(int status, const std::string& reason, const std::string& message) {
  return JsonResponse(status, "{\"error\":" + JsonQuote(reason) + ",\"message\":" + JsonQuote(message) + "}");
}

HttpResponse JsonResponse(int status, std::string json) {
  HttpResponse r;
  r.status = status;
  r.body = std::move(json);
  r.body.push_back('\n');
  return r;
}

}  // namespace ldpgraph
