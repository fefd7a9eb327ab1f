#include "api/admin_api.h"

#include <map>

#include <nlohmann/json.hpp>

#include "api/federation_api.h"
#include "requests/graph_config_json.h"
#include "api/gw_api.h"
#include "api/held_graph_api.h"
#include "api/learning_api.h"
#include "api/report_ingest.h"
#include "api/round_api.h"
#include "api/routes.h"
#include "net/json_body.h"
#include "net/json_response.h"
#include "net/token_authority.h"

namespace ldpgraph {
namespace {

using nlohmann::json;

constexpr std::uint32_t kMaxGraphUsers = 1u << 30;

HttpResponse CreateGraph(ServiceContext& ctx, const HttpRequest& request) {
  json body;
  if (auto refused = ReadJsonBody(request.body, {}, &body)) return *refused;
  auto config = GraphConfigFromJsonValue(body);
  if (!config.ok()) return ErrorResponse(400, "invalid_config", config.status().message());
  auto rounds = ParseRoundSchedule(body.contains("rounds") ? &body["rounds"] : nullptr, *config);
  if (!rounds.ok()) return ErrorResponse(400, "invalid_config", rounds.status().message());
  // What the daemon can assemble: rows, features and labels are held for
  // every user, whether she reported or not (issue 66: 2^32 - 1 users and
  // 60 reports took a job to 21 GB). Held graphs have the same bound.
  if (config->num_users > kMaxGraphUsers) {
    return ErrorResponse(400, "invalid_config",
                         "num_users must be at most " + std::to_string(kMaxGraphUsers) + " (2^30), got " +
                             std::to_string(config->num_users));
  }
  Status created = ctx.graphs.Create(*config, *rounds);
  if (created.code() == StatusCode::kFailedPrecondition) return ErrorResponse(409, "exists", created.message());
  if (!created.ok()) return ErrorResponse(503, "unavailable", created.message());
  ctx.logger->Info("graph_created", {{"graph_id", std::to_string(config->graph_id)},
                                     {"num_users", std::to_string(config->num_users)},
                                     {"rounds", rounds->enabled ? "yes" : "no"}});
  return JsonResponse(201, GraphPolicyJson(*config, *rounds));
}

HttpResponse ListGraphs(ServiceContext& ctx) {
  auto counts = ctx.store->CountReports();
  if (!counts.ok()) return ErrorResponse(503, "unavailable", counts.status().message());
  std::map<std::uint64_t, std::uint64_t> reports;
  for (const GraphReportCount& c : *counts) reports[c.graph_id] = c.reports;
  auto labels = ctx.store->GraphLabels();
  auto rules = ctx.store->GraphSymmetrisations();
  auto rounds = ctx.store->Rounds();
  if (!labels.ok() || !rules.ok() || !rounds.ok()) return ErrorResponse(503, "unavailable", "the store cannot be read");
  json list = json::array();
  for (const auto& registered : ctx.graphs.All()) {
    const GraphConfig& g = registered->config;
    json entry = {{"graph_id", g.graph_id},
                  {"num_users", g.num_users},
                  {"reports", reports[g.graph_id]},
                  {"symmetrise", rules->count(g.graph_id) ? (*rules)[g.graph_id] : "none"},
                  {"config", json::parse(GraphPolicyJson(g, registered->rounds))}};
    if (labels->count(g.graph_id)) entry["label"] = (*labels)[g.graph_id];
    if (rounds->count(g.graph_id)) entry["rounds"] = RoundStateJson(*registered, rounds->at(g.graph_id));
    list.push_back(entry);
  }
  return JsonResponse(200, json{{"graphs", list}}.dump());
}

HttpResponse IssueTokens(ServiceContext& ctx, const HttpRequest& request, const std::string& id_text) {
  const std::optional<std::uint64_t> parsed = ParseGraphId(id_text);
  if (!parsed) return ErrorResponse(400, "invalid_request", "graph id '" + id_text + "' is not an unsigned integer");
  const std::uint64_t graph_id = *parsed;
  auto graph = ctx.graphs.Find(graph_id);
  if (!graph) return ErrorResponse(404, "unknown_graph", "no graph " + id_text);
  json body;
  if (auto refused = ReadJsonBody(request.body, {"users", "first", "count"}, &body)) return *refused;
  std::vector<std::uint64_t> users;
  if (body.contains("users")) {
    const json& list = body["users"];
    if (!list.is_array() || list.size() > kMaxTokensPerRequest) {
      return ErrorResponse(400, "invalid_request",
                           "\"users\" must be an array of at most " + std::to_string(kMaxTokensPerRequest) + " ids");
    }
    for (const json& u : list) {
      if (!u.is_number_unsigned()) return ErrorResponse(400, "invalid_request", "user ids must be unsigned integers");
      users.push_back(u.get<std::uint64_t>());
    }
  } else if (body.contains("first") && body.contains("count")) {
    if (!body["first"].is_number_unsigned() || !body["count"].is_number_unsigned()) {
      return ErrorResponse(400, "invalid_request", "\"first\" and \"count\" must be unsigned integers");
    }
    const std::uint64_t first = body["first"].get<std::uint64_t>(), count = body["count"].get<std::uint64_t>();
    if (count > kMaxTokensPerRequest) {
      return ErrorResponse(400, "invalid_request", "at most " + std::to_string(kMaxTokensPerRequest) +
                                                       " tokens per request");
    }
    // first + count would wrap past 2^64 - 1 and name no user at all.
    if (count > 0 && first > graph->config.num_users - 1) {
      return ErrorResponse(400, "out_of_range", "\"first\" = " + std::to_string(first) +
                                                    " is not below the graph's n = " +
                                                    std::to_string(graph->config.num_users));
    }
    for (std::uint64_t u = first; u < first + count; ++u) users.push_back(u);
  } else {
    return ErrorResponse(400, "invalid_request", "body needs \"users\" or \"first\" and \"count\"");
  }
  json tokens = json::array();
  for (std::uint64_t u : users) {
    if (u >= graph->config.num_users) {
      return ErrorResponse(400, "out_of_range", "user id " + std::to_string(u) + " is not below the graph's n = " +
                                                    std::to_string(graph->config.num_users));
    }
    tokens.push_back({{"user_id", u}, {"token", ctx.tokens.Issue(graph_id, static_cast<std::uint32_t>(u))}});
  }
  return JsonResponse(200, json{{"graph_id", graph_id}, {"tokens", tokens}}.dump());
}

}  // namespace

bool AdminAuthorized(const ServiceContext& ctx, const HttpRequest& request) {
  const std::string token = BearerToken(request.authorization);
  return !token.empty() && SecretsEqual(token, ctx.admin_token);
}

namespace {

HttpResponse RouteAdmin(ServiceContext& ctx, const HttpRequest& request, const std::string& path) {
  if (std::optional<HttpResponse> learning = HandleLearning(ctx, request, path)) return *learning;
  if (std::optional<HttpResponse> rounds = HandleRounds(ctx, request, path)) return *rounds;
  if (std::optional<HttpResponse> held = HandleHeldGraphs(ctx, request, path)) return *held;
  if (std::optional<HttpResponse> federation = HandleFederation(ctx, request, path)) return *federation;
  if (std::optional<HttpResponse> gw = HandleGw(ctx, request, path)) return *gw;
  if (path == "/v1/admin/graphs") {
    if (request.method == "POST") return CreateGraph(ctx, request);
    if (request.method == "GET") return ListGraphs(ctx);
    return MethodNotAllowed(request, path, "GET, POST");
  }
  if (std::optional<std::string> id = PathParameter(path, "/v1/admin/graphs/", "/tokens")) {
    if (request.method != "POST") return MethodNotAllowed(request, path, "POST");
    return IssueTokens(ctx, request, *id);
  }
  return ErrorResponse(404, "not_found", "no admin resource " + path);
}

}  // namespace

HttpResponse HandleAdmin(ServiceContext& ctx, const HttpRequest& request, const std::string& path) {
  if (!AdminAuthorized(ctx, request)) {
    HttpResponse r = ErrorResponse(401, "unauthenticated", "the admin bearer token is missing or wrong");
    r.headers.emplace_back("WWW-Authenticate", "Bearer");
    return r;
  }
  // A route that reads a field as the wrong JSON type without checking it
  // first must not end the daemon: the body was the client's.
  if (auto refused = CheckRoute(request, path)) return *refused;
  try {
    return RouteAdmin(ctx, request, path);
  } catch (const json::type_error& e) {
    return ErrorResponse(400, "invalid_request", "a field of the body has the wrong type: " + JsonErrorText(e));
  }
}

}  // namespace ldpgraph
