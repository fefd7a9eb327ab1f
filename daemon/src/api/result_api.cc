#include "api/result_api.h"

#include <algorithm>
#include <memory>
#include <optional>

#include <nlohmann/json.hpp>

#include "api/model_predictions.h"
#include "api/result_cache.h"
#include "jobs/memory_budget.h"
#include "ldpgraph/device_result.h"
#include "net/accept_header.h"
#include "net/json_response.h"
#include "net/storage_failure.h"
#include "net/token_authority.h"

namespace ldpgraph {
namespace {

using nlohmann::json;

HttpResponse Refused(int status, const char* error, const std::string& message, unsigned retry_after = 0) {
  HttpResponse r = ErrorResponse(status, error, message);
  if (status == 401) r.headers.emplace_back("WWW-Authenticate", "Bearer");
  if (retry_after > 0) r.headers.emplace_back("Retry-After", std::to_string(retry_after));
  return r;
}

// The newest model trained on graph `graph` (GAP models are of held graphs,
// never of devices' reports), with its summary.
// Errors: the store's.
Result<std::optional<std::pair<std::uint64_t, json>>> LatestCovering(const ServiceContext& ctx, std::uint64_t graph) {
  Result<std::map<std::uint64_t, std::string>> listed = ctx.models->List();
  if (!listed.ok()) return listed.status();
  const std::map<std::uint64_t, std::string>& models = *listed;
  for (auto it = models.rbegin(); it != models.rend(); ++it) {
    json about = json::parse(it->second, nullptr, false);
    if (!about.is_object() || about.value("model", "") == "gap" || !about.contains("graphs")) continue;
    const json& graphs = about["graphs"];
    if (graphs.is_array() && std::find(graphs.begin(), graphs.end(), json(graph)) != graphs.end()) {
      return std::optional<std::pair<std::uint64_t, json>>(std::make_pair(it->first, std::move(about)));
    }
  }
  return std::optional<std::pair<std::uint64_t, json>>();
}

// Every user's (node model) or the graph's (graph model) probabilities
// under model `version`, from the cache or computed now.
Result<std::shared_ptr<const Matrix>> Probabilities(ServiceContext& ctx, std::uint64_t version, const json& about,
                                                    const GraphConfig& graph) {
  if (ctx.results != nullptr) {
    if (auto cached = ctx.results->Find(version, graph.graph_id)) return cached;
  }
  Result<AnyModel> model = ctx.models->Load(version);
  if (!model.ok()) return model.status();
  const bool node = about.value("task", "graph") == "node";
  const std::uint64_t classes = about.value("classes", json::array()).size();
  MemoryBudget::Lease lease;
  if (ctx.memory != nullptr) {
    Result<std::uint64_t> report_bytes = StoredReportBytes(ctx, {graph}, about.value("round", kNewestRound));
    if (!report_bytes.ok()) return report_bytes.status();
    const std::uint64_t bytes =
        node ? PredictionMemory(graph.num_users, model->node->config().hidden, model->node->config().layers,
                                graph.features.enabled ? graph.features.params.dims : 0, 0, classes, *report_bytes)
             : PredictionMemory(graph.num_users, model->gin->config().hidden, model->gin->config().layers,
                                model->gin->config().input_dim, 0, classes, *report_bytes);
    Result<MemoryBudget::Lease> leased = ctx.memory->TryReserve(bytes, "this result");
    if (!leased.ok()) return leased.status();
    lease = std::move(leased).value();
  }
  Result<Matrix> probs = node ? NodeModelProbabilities(ctx, about, *model, graph)
                              : GraphModelProbabilities(ctx, about, *model, {graph});
  if (!probs.ok()) return probs.status();
  if (ctx.results == nullptr) return std::make_shared<const Matrix>(std::move(probs).value());
  lease = MemoryBudget::Lease();  // the computation's: the cache leases what it keeps
  return ctx.results->Put(version, graph.graph_id, std::move(probs).value());
}

HttpResponse Answer(const DeviceResult& r, const json& classes, bool binary) {
  if (binary) {
    std::vector<std::uint8_t> bytes;
    Status encoded = EncodeDeviceResult(r, &bytes);
    if (!encoded.ok()) return ErrorResponse(500, "internal", encoded.message());
    HttpResponse out;
    out.content_type = kDeviceResultMediaType;
    out.body.assign(bytes.begin(), bytes.end());
    return out;
  }
  const json body = {{"graph_id", r.graph_id},
                     {"user", r.user_id},
                     {"task", r.task == ResultTask::kNode ? "node" : "graph"},
                     {"model_version", r.model_version},
                     {"trained_at", r.trained_at},
                     {"class", r.class_label},
                     {"classes", classes},
                     {"probabilities", r.probabilities}};
  return JsonResponse(200, body.dump());
}

// The result itself, once the caller is known to be user `user` of `graph`.
HttpResponse Compute(ServiceContext& ctx, const GraphConfig& graph, std::uint32_t user, std::uint64_t version,
                     const json& about, bool binary) {
  Result<std::shared_ptr<const Matrix>> probs = Probabilities(ctx, version, about, graph);
  if (probs.status().code() == StatusCode::kResourceExhausted) {
    return ErrorResponse(422, "over_memory_budget", probs.status().message());
  }
  if (probs.status().code() == StatusCode::kUnavailable && ctx.memory != nullptr) {
    return Refused(503, "busy", probs.status().message(), 1);
  }
  if (!probs.ok()) return ErrorResponse(503, "unavailable", probs.status().message());
  const bool node = about.value("task", "graph") == "node";
  const Matrix& p = **probs;
  const Eigen::Index row = node ? static_cast<Eigen::Index>(user) : 0;
  if (row >= p.rows() || p.cols() == 0) return ErrorResponse(503, "unavailable", "the model predicts no row for you");
  DeviceResult r;
  r.graph_id = graph.graph_id;
  r.user_id = user;
  r.task = node ? ResultTask::kNode : ResultTask::kGraph;
  r.model_version = version;
  r.trained_at = about.value("trained_at", std::int64_t{0});
  Eigen::Index best = 0;
  p.row(row).maxCoeff(&best);
  r.class_index = static_cast<std::uint32_t>(best);
  const json classes = about.value("classes", json::array());
  r.class_label = static_cast<std::size_t>(best) < classes.size() && classes[best].is_number_integer()
                      ? classes[best].get<std::int64_t>()
                      : best;
  for (Eigen::Index c = 0; c < p.cols(); ++c) r.probabilities.push_back(std::clamp(double(p(row, c)), 0.0, 1.0));
  return Answer(r, classes, binary);
}

}  // namespace

void AnswerDeviceResult(ServiceContext& ctx, const HttpRequest& request, const std::string& graph_id_text,
                        Respond respond) {
  if (unsigned wait = ctx.per_address_limit.Admit(request.remote_address)) {
    return respond(Refused(429, "rate_limited", "too many requests from " + request.remote_address, wait));
  }
  const std::optional<std::uint64_t> graph_id = ParseGraphId(graph_id_text);
  if (!graph_id) {
    return respond(ErrorResponse(400, "invalid_request", "graph id '" + graph_id_text + "' is not an unsigned integer"));
  }
  const std::string token = BearerToken(request.authorization);
  if (token.empty()) return respond(Refused(401, "unauthenticated", "an Authorization: Bearer user token is required"));
  Result<TokenSubject> subject = ctx.tokens.Verify(token);
  if (!subject.ok()) return respond(Refused(401, "unauthenticated", subject.status().message()));
  if (subject->graph_id != *graph_id) {
    return respond(ErrorResponse(403, "forbidden", "this token is for graph " + std::to_string(subject->graph_id) +
                                                       ", not " + graph_id_text));
  }
  const std::string token_key = std::to_string(subject->graph_id) + ":" + std::to_string(subject->user_id);
  if (unsigned wait = ctx.per_token_limit.Admit(token_key)) {
    return respond(Refused(429, "rate_limited", "too many requests for this token", wait));
  }
  auto graph = ctx.graphs.Find(*graph_id);
  if (!graph) return respond(ErrorResponse(404, "unknown_graph", "no graph " + graph_id_text));
  if (subject->user_id >= graph->config.num_users) {
    return respond(ErrorResponse(403, "forbidden", "this token's user is not one of the graph's"));
  }
  if (ctx.models == nullptr) return respond(ErrorResponse(404, "no_result", "this daemon trains no models"));
  Result<std::optional<std::pair<std::uint64_t, json>>> found = LatestCovering(ctx, *graph_id);
  if (!found.ok()) return respond(StorageFailureResponse(ctx.logger, "models", found.status()));
  std::optional<std::pair<std::uint64_t, json>>& latest = *found;
  if (!latest) {
    return respond(ErrorResponse(404, "no_result", "no model covers graph " + graph_id_text + " yet"));
  }
  const bool binary = AcceptsMediaType(request.accept, kDeviceResultMediaType);
  const std::uint32_t user = subject->user_id;
  const GraphConfig config = graph->config;
  const std::uint64_t version = latest->first;
  const json about = std::move(latest->second);
  // Cached: answered here. Otherwise computed on the query worker, which
  // finds it cached for every device queued behind the first.
  if (ctx.queries == nullptr || (ctx.results != nullptr && ctx.results->Find(version, *graph_id))) {
    return respond(Compute(ctx, config, user, version, about, binary));
  }
  ctx.queries->Submit([&ctx, config, user, version, about, binary] {
    return Compute(ctx, config, user, version, about, binary);
  }, std::move(respond));
}

}  // namespace ldpgraph
