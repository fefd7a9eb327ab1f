#include "console/admin_json.h"

#include "api/admin_api.h"

namespace ldpgraph {

Result<nlohmann::json> AdminJson(ServiceContext& ctx, const std::string& path) {
  HttpRequest request;
  request.method = "GET";
  request.target = path;
  request.authorization = "Bearer " + ctx.admin_token;
  request.remote_address = "console";
  const HttpResponse answer = HandleAdmin(ctx, request, path);
  nlohmann::json body = nlohmann::json::parse(answer.body, nullptr, false);
  if (answer.status != 200 || body.is_discarded()) {
    const std::string message = body.is_object() && body.contains("message") ? body["message"].get<std::string>()
                                                                            : "status " + std::to_string(answer.status);
    return Status::Unavailable(path + ": " + message);
  }
  return body;
}

}  // namespace ldpgraph
