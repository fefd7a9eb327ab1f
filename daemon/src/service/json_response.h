// Small helpers for the API's JSON answers.
#ifndef LDPGRAPH_DAEMON_SERVICE_JSON_RESPONSE_H_
#define LDPGRAPH_DAEMON_SERVICE_JSON_RESPONSE_H_

#include <string>

#include "service/http_types.h"

namespace ldpgraph {

// {"error": reason, "message": message} with `status`.
HttpResponse ErrorResponse(int status, const std::string& reason, const std::string& message);
HttpResponse JsonResponse(int status, std::string json);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_SERVICE_JSON_RESPONSE_H_
