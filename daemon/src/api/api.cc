#include "api/api.h"

#include "api/admin_api.h"
#include "requests/graph_config_json.h"
#include "api/gw_api.h"
#include "api/held_graph_api.h"
#include "api/learning_api.h"
#include "api/report_ingest.h"
#include "api/result_api.h"
#include "api/round_api.h"
#include "api/routes.h"
#include "net/storage_failure.h"
#include "ldpgraph/graph_config_codec.h"
#include "net/accept_header.h"
#include "net/json_response.h"

namespace ldpgraph {
namespace {

HttpResponse PublicGraph(ServiceContext& ctx, const std::string& id_text, const std::string& accept) {
  const std::optional<std::uint64_t> id = ParseGraphId(id_text);
  if (!id) return ErrorResponse(400, "invalid_request", "graph id '" + id_text + "' is not an unsigned integer");
  auto graph = ctx.graphs.Find(*id);
  if (!graph) return ErrorResponse(404, "unknown_graph", "no graph " + id_text);
  // A graph collected in rounds: its open round, which each report names
  // (also in the Ldpgraph-Round header, for devices reading the binary form).
  std::optional<RoundState> round;
  if (graph->rounds.enabled) {
    Result<std::optional<RoundState>> stored = ctx.store->RoundStateOf(*id);
    if (!stored.ok()) return StorageFailureResponse(ctx.logger, "rounds", stored.status());
    round = *stored;
  }
  HttpResponse r;
  if (AcceptsMediaType(accept, kGraphConfigMediaType)) {
    // Devices: the SDK decodes this without a JSON parser.
    std::vector<std::uint8_t> bytes;
    Status encoded = EncodeGraphConfig(graph->config, &bytes);
    if (!encoded.ok()) return ErrorResponse(500, "internal", encoded.message());
    r.content_type = kGraphConfigMediaType;
    r.body.assign(bytes.begin(), bytes.end());
  } else {
    nlohmann::json j = nlohmann::json::parse(GraphPolicyJson(graph->config, graph->rounds));
    if (round) {  // the schedule and where it stands
      nlohmann::json state = RoundStateJson(*graph, *round);
      state.erase("graph_id");
      j["rounds"].update(state);
    }
    r = JsonResponse(200, j.dump());
  }
  if (round) r.headers.emplace_back("Ldpgraph-Round", std::to_string(round->current));
  return r;
}

}  // namespace

void HandleRequest(ServiceContext& ctx, HttpRequest request, Respond respond) {
  const std::string path = request.target.substr(0, request.target.find('?'));
  const bool admin = path.compare(0, 10, "/v1/admin/") == 0;
  // Admin paths are checked once the token is (HandleAdmin): a stranger learns nothing of them.
  if (!admin) {
    if (auto refused = CheckRoute(request, path)) return respond(std::move(*refused));
  }
  if (path == kReportsPath) {
    if (request.method != "POST") return respond(MethodNotAllowed(request, path, "POST"));
    return IngestReports(ctx, request, std::move(respond));
  }
  static const std::string kGraphs = "/v1/graphs/";
  if (std::optional<std::string> id = PathParameter(path, kGraphs, "/result")) {
    return AnswerDeviceResult(ctx, request, *id, std::move(respond));
  }
  if (path.compare(0, kGraphs.size(), kGraphs) == 0) {
    return respond(PublicGraph(ctx, path.substr(kGraphs.size()), request.accept));
  }
  if (admin) {
    // GW queries, predictions, job submissions and held-graph uploads compute
    // for long: on the query worker, once the token is known to be right (a
    // stranger cannot fill its queue).
    const bool long_request =
        IsGwPath(path) || IsLongLearningRequest(request, path) || IsHeldGraphUpload(request, path);
    if (ctx.queries && long_request && AdminAuthorized(ctx, request)) {
      return ctx.queries->Submit([&ctx, request = std::move(request), path] { return HandleAdmin(ctx, request, path); },
                                 std::move(respond));
    }
    return respond(HandleAdmin(ctx, request, path));
  }
  if (path == "/healthz") {
    if (request.method != "GET") return respond(MethodNotAllowed(request, path, "GET"));
    if (ctx.draining.load()) return respond(JsonResponse(503, "{\"status\":\"draining\"}"));
    return respond(JsonResponse(200, "{\"status\":\"ok\"}"));
  }
  if (path == "/readyz") {  // readiness: whether reports sent here would be stored now
    if (request.method != "GET") return respond(MethodNotAllowed(request, path, "GET"));
    if (ctx.draining.load()) return respond(JsonResponse(503, "{\"status\":\"draining\"}"));
    // The reason stays out of a public answer (it may name the database's host).
    if (!ctx.store->CheckReady().ok()) return respond(JsonResponse(503, "{\"status\":\"store_unavailable\"}"));
    return respond(JsonResponse(200, "{\"status\":\"ready\"}"));
  }
  if (path == "/metrics") {
    if (request.method != "GET") return respond(MethodNotAllowed(request, path, "GET"));
    HttpResponse r;
    r.content_type = "text/plain; version=0.0.4";
    r.body = ctx.metrics.RenderPrometheus();
    return respond(std::move(r));
  }
  respond(ErrorResponse(404, "not_found", "nothing is served at " + path));
}

}  // namespace ldpgraph
