#include "api/federation_api.h"

#include <cmath>
#include <set>

#include <nlohmann/json.hpp>

#include "federation/coordinator.h"
#include "federation/party_service.h"
#include "net/json_body.h"
#include "net/json_response.h"
#include "net/storage_failure.h"

namespace ldpgraph {
namespace {

using nlohmann::json;

// The run's request from its JSON; a message naming the bad field.
// The keys a run's request may have.
const JsonKeys kRunFields = {
    "held_graph", "steps", "epochs", "lr", "weight_decay", "seed", "train_fraction", "val_fraction", "lnnc"};

Result<FedCogRunRequest> RunRequestFromJson(const json& body) {
  FedCogRunRequest r;
  auto unsigned_field = [&](const char* key, std::uint64_t max, auto* out, bool required) -> Status {
    if (!body.contains(key)) {
      return required ? Status::InvalidArgument(std::string("\"") + key + "\" is required") : Status::Ok();
    }
    const json& v = body[key];
    if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<std::int64_t>() >= 0)) {
      return Status::InvalidArgument(std::string("\"") + key + "\" must be an unsigned integer");
    }
    if (v.get<std::uint64_t>() > max) {
      return Status::InvalidArgument(std::string("\"") + key + "\" must be at most " + std::to_string(max));
    }
    *out = static_cast<std::remove_pointer_t<decltype(out)>>(v.get<std::uint64_t>());
    return Status::Ok();
  };
  auto number_field = [&](const char* key, auto* out) -> Status {
    if (!body.contains(key)) return Status::Ok();
    if (!body[key].is_number() || !std::isfinite(body[key].get<double>())) {
      return Status::InvalidArgument(std::string("\"") + key + "\" must be a finite number");
    }
    *out = static_cast<std::remove_pointer_t<decltype(out)>>(body[key].get<double>());
    return Status::Ok();
  };
  LDPGRAPH_RETURN_IF_ERROR(unsigned_field("held_graph", UINT64_MAX, &r.held_graph, true));
  LDPGRAPH_RETURN_IF_ERROR(unsigned_field("steps", 64, &r.steps, false));
  LDPGRAPH_RETURN_IF_ERROR(unsigned_field("epochs", 100000, &r.training.max_epochs, false));
  LDPGRAPH_RETURN_IF_ERROR(unsigned_field("seed", UINT64_MAX, &r.training.seed, false));
  LDPGRAPH_RETURN_IF_ERROR(number_field("lr", &r.training.lr));
  LDPGRAPH_RETURN_IF_ERROR(number_field("weight_decay", &r.training.weight_decay));
  LDPGRAPH_RETURN_IF_ERROR(number_field("train_fraction", &r.train_fraction));
  LDPGRAPH_RETURN_IF_ERROR(number_field("val_fraction", &r.val_fraction));
  if (body.contains("lnnc")) {
    if (!body["lnnc"].is_boolean()) return Status::InvalidArgument("\"lnnc\" must be true or false");
    r.lnnc = body["lnnc"].get<bool>();
  }
  return r;
}

HttpResponse Predict(const PartyService& party, std::uint64_t run, const std::string& text) {
  Result<FederatedModel> model = party.LoadModel(run);
  if (model.status().code() == StatusCode::kFailedPrecondition) {
    return ErrorResponse(404, "unknown_model", model.status().message());
  }
  if (!model.ok()) return ErrorResponse(500, "corrupt_model", model.status().message());
  json body;
  if (auto refused = ReadJsonBody(text, {"keys"}, &body)) return *refused;
  if (!body.contains("keys") || !body["keys"].is_array()) {
    return ErrorResponse(400, "invalid_request", "body must be {\"keys\": [user keys]}");
  }
  json out = json::array();
  for (std::size_t i = 0; i < body["keys"].size(); ++i) {
    const json& k = body["keys"][i];
    if (!k.is_number_unsigned() && !(k.is_number_integer() && k.get<std::int64_t>() >= 0)) {
      return ErrorResponse(400, "invalid_request", "keys[" + std::to_string(i) + "] must be an unsigned integer");
    }
    const auto at = std::lower_bound(model->keys.begin(), model->keys.end(), k.get<std::uint64_t>());
    if (at == model->keys.end() || *at != k.get<std::uint64_t>()) {
      return ErrorResponse(404, "unknown_user", "key " + k.dump() + " is not one of this party's users");
    }
    const auto row = model->probabilities.row(at - model->keys.begin());
    Eigen::Index best = 0;
    row.maxCoeff(&best);
    out.push_back({{"key", *at},
                   {"class", best},
                   {"probabilities", std::vector<float>(row.data(), row.data() + row.size())}});
  }
  return JsonResponse(200, json{{"run", run}, {"predictions", out}}.dump());
}

}  // namespace

std::optional<HttpResponse> HandleFederation(ServiceContext& ctx, const HttpRequest& request, const std::string& path) {
  static const std::string kPrefix = "/v1/admin/federation/";
  if (path.compare(0, kPrefix.size(), kPrefix) != 0 && path != "/v1/admin/federation") return std::nullopt;
  if (ctx.coordinator == nullptr || ctx.federation_party == nullptr) {
    return ErrorResponse(409, "not_federated", "this daemon has no [federation] in its config");
  }
  Coordinator& coordinator = *ctx.coordinator;
  if (path == "/v1/admin/federation/runs") {
    if (request.method == "POST") {
      json body;
      if (auto refused = ReadJsonBody(request.body, kRunFields, &body)) return *refused;
      Result<FedCogRunRequest> r = RunRequestFromJson(body);
      if (!r.ok()) return ErrorResponse(400, "invalid_request", r.status().message());
      Result<bool> held = ctx.held_graphs->Has(r->held_graph);
      if (!held.ok()) return StorageFailureResponse(ctx.logger, "held graphs", held.status());
      if (!*held) {
        return ErrorResponse(422, "unknown_held_graph", "this party holds no share " + std::to_string(r->held_graph));
      }
      Result<std::uint64_t> run = coordinator.Start(*r);
      if (run.status().code() == StatusCode::kResourceExhausted) {
        return ErrorResponse(429, "busy", run.status().message());
      }
      if (!run.ok()) return ErrorResponse(400, "invalid_request", run.status().message());
      return JsonResponse(202, json{{"run", *run}}.dump());
    }
    if (request.method != "GET") return MethodNotAllowed(request, path, "GET, POST");
    json list = json::array();
    Result<std::map<std::uint64_t, std::string>> runs = coordinator.Runs();
    if (!runs.ok()) return StorageFailureResponse(ctx.logger, "federation runs", runs.status());
    for (const auto& [id, status] : *runs) list.push_back(json::parse(status, nullptr, false));
    return JsonResponse(200, json{{"runs", list}}.dump());
  }
  if (std::optional<std::string> id_text = PathParameter(path, "/v1/admin/federation/runs/", "")) {
    const std::optional<std::uint64_t> id = ParseGraphId(*id_text);
    if (!id) return ErrorResponse(400, "invalid_request", "run id '" + *id_text + "' is not an unsigned integer");
    if (request.method == "DELETE") {
      Status cancelled = coordinator.Cancel(*id);
      if (!cancelled.ok()) return ErrorResponse(409, "not_running", cancelled.message());
      return JsonResponse(202, json{{"run", *id}, {"cancelling", true}}.dump());
    }
    if (request.method != "GET") return MethodNotAllowed(request, path, "GET, DELETE");
    Result<std::optional<std::string>> status = coordinator.RunStatus(*id);
    if (!status.ok()) return StorageFailureResponse(ctx.logger, "federation runs", status.status());
    if (!*status) return ErrorResponse(404, "unknown_run", "no run " + *id_text + " was coordinated here");
    return JsonResponse(200, **status);
  }
  if (path == "/v1/admin/federation/models") {
    if (request.method != "GET") return MethodNotAllowed(request, path, "GET");
    json list = json::array();
    for (const auto& [id, summary] : ctx.federation_party->Models()) list.push_back(json::parse(summary, nullptr, false));
    return JsonResponse(200, json{{"models", list}}.dump());
  }
  if (std::optional<std::string> id_text = PathParameter(path, "/v1/admin/federation/models/", "/predict")) {
    const std::optional<std::uint64_t> id = ParseGraphId(*id_text);
    if (!id) return ErrorResponse(400, "invalid_request", "run id '" + *id_text + "' is not an unsigned integer");
    if (request.method != "POST") return MethodNotAllowed(request, path, "POST");
    return Predict(*ctx.federation_party, *id, request.body);
  }
  if (std::optional<std::string> id_text = PathParameter(path, "/v1/admin/federation/models/", "")) {
    const std::optional<std::uint64_t> id = ParseGraphId(*id_text);
    if (!id) return ErrorResponse(400, "invalid_request", "run id '" + *id_text + "' is not an unsigned integer");
    if (request.method != "GET") return MethodNotAllowed(request, path, "GET");
    Result<FederatedModel> model = ctx.federation_party->LoadModel(*id);
    if (model.status().code() == StatusCode::kFailedPrecondition) {
      return ErrorResponse(404, "unknown_model", model.status().message());
    }
    if (!model.ok()) return ErrorResponse(500, "corrupt_model", model.status().message());
    return JsonResponse(200, model->Summary());
  }
  return ErrorResponse(404, "not_found", "no federation resource " + path);
}

}  // namespace ldpgraph
