#include "api/round_api.h"

#include <cmath>

#include "api/learning_api.h"
#include "net/json_body.h"
#include "net/json_response.h"
#include "net/storage_failure.h"

namespace ldpgraph {
namespace {

using nlohmann::json;

// The graph `id_text` names, collected in rounds, with its round state; or
// the answer refusing the request.
std::optional<HttpResponse> FindRoundGraph(ServiceContext& ctx, const std::string& id_text,
                                           std::shared_ptr<const RegisteredGraph>* graph, RoundState* state) {
  const std::optional<std::uint64_t> id = ParseGraphId(id_text);
  if (!id) return ErrorResponse(400, "invalid_request", "graph id '" + id_text + "' is not an unsigned integer");
  *graph = ctx.graphs.Find(*id);
  if (!*graph) return ErrorResponse(404, "unknown_graph", "no graph " + id_text);
  if (!(*graph)->rounds.enabled) {
    return ErrorResponse(409, "not_in_rounds",
                         "graph " + id_text + " is collected once; a graph collected in rounds is created with "
                                              "\"rounds\" in its policy");
  }
  Result<std::optional<RoundState>> stored = ctx.store->RoundStateOf(*id);
  if (!stored.ok()) return StorageFailureResponse(ctx.logger, "rounds", stored.status());
  if (!*stored) return ErrorResponse(503, "unavailable", "the store has no round of graph " + id_text);
  *state = **stored;
  return std::nullopt;
}

HttpResponse Close(ServiceContext& ctx, const HttpRequest& request, const std::string& id_text) {
  std::shared_ptr<const RegisteredGraph> graph;
  RoundState state;
  if (auto refused = FindRoundGraph(ctx, id_text, &graph, &state)) return *refused;
  json body;
  if (auto refused = ReadJsonBody(request.body, {"close"}, &body, /*empty_is_object=*/true)) return *refused;
  std::uint32_t open = state.current;
  if (body.contains("close")) {
    const json& c = body["close"];
    if (!c.is_number_unsigned() || c.get<std::uint64_t>() > kNewestRound) {
      return ErrorResponse(400, "invalid_request", "\"close\" must be the number of the open round");
    }
    open = c.get<std::uint32_t>();
  }
  json retrain;
  Result<RoundState> opened = CloseRound(ctx, *graph, open, "admin", &retrain);
  if (opened.status().code() == StatusCode::kFailedPrecondition) {
    return ErrorResponse(409, "round_not_open", opened.status().message());
  }
  if (opened.status().code() == StatusCode::kOutOfRange) {
    return ErrorResponse(409, "rounds_exhausted", opened.status().message());
  }
  if (!opened.ok()) return StorageFailureResponse(ctx.logger, "rounds", opened.status());
  json answer = RoundStateJson(*graph, *opened);
  answer["closed"] = open;
  if (!retrain.is_null()) answer["retrain"] = retrain;
  return JsonResponse(201, answer.dump());
}

}  // namespace

json RoundStateJson(const RegisteredGraph& graph, const RoundState& state) {
  json j = {{"graph_id", graph.config.graph_id},
            {"open", state.current},
            {"opened_unix", state.opened_unix},
            {"oldest_kept", state.OldestKept()},
            {"history", state.history}};
  if (graph.rounds.every_hours > 0) {
    j["closes_unix"] = state.opened_unix + static_cast<std::int64_t>(std::ceil(graph.rounds.every_hours * 3600));
  }
  return j;
}

Result<RoundState> CloseRound(ServiceContext& ctx, const RegisteredGraph& graph, std::uint32_t open, const char* by,
                              json* retrain) {
  const std::uint64_t id = graph.config.graph_id;
  Result<RoundState> opened = ctx.store->OpenRound(id, open);
  if (!opened.ok()) return opened.status();
  ctx.metrics.rounds_opened.fetch_add(1);
  ctx.logger->Info("round_opened", {{"graph_id", std::to_string(id)},
                                    {"round", std::to_string(opened->current)},
                                    {"closed", std::to_string(open)},
                                    {"by", by}});
  *retrain = nullptr;
  if (graph.rounds.retrain.is_null() || ctx.jobs == nullptr) return opened;
  // The schedule's node job, on the round that closed: a model version per round.
  json body = graph.rounds.retrain;
  body["task"] = "node";
  body["graph"] = id;
  body["round"] = open;
  const HttpResponse queued = StartJobFromJson(ctx, body);
  const json answer = json::parse(queued.body, nullptr, false);
  if (queued.status == 202 && answer.is_object() && answer.contains("job_id")) {
    *retrain = {{"job_id", answer["job_id"]}};
    ctx.logger->Info("round_retrain_queued", {{"graph_id", std::to_string(id)},
                                              {"round", std::to_string(open)},
                                              {"job_id", answer["job_id"].dump()}});
  } else {
    const std::string why = answer.is_object() ? answer.value("message", queued.body) : queued.body;
    *retrain = {{"error", why}};
    ctx.metrics.round_retrains_refused.fetch_add(1);
    ctx.logger->Error("round_retrain_refused",
                      {{"graph_id", std::to_string(id)}, {"round", std::to_string(open)}, {"error", why}});
  }
  return opened;
}

std::optional<HttpResponse> HandleRounds(ServiceContext& ctx, const HttpRequest& request, const std::string& path) {
  std::optional<std::string> id = PathParameter(path, "/v1/admin/graphs/", "/rounds");
  if (!id) return std::nullopt;
  if (request.method == "POST") return Close(ctx, request, *id);
  if (request.method != "GET") return MethodNotAllowed(request, path, "GET, POST");
  std::shared_ptr<const RegisteredGraph> graph;
  RoundState state;
  if (auto refused = FindRoundGraph(ctx, *id, &graph, &state)) return *refused;
  return JsonResponse(200, RoundStateJson(*graph, state).dump());
}

}  // namespace ldpgraph
