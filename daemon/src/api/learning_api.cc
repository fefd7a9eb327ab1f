#include "api/learning_api.h"

#include <set>
#include <unordered_set>

#include <nlohmann/json.hpp>

#include "api/held_graph_api.h"
#include "api/queue_job.h"
#include "api/model_predictions.h"
#include "assembly/dataset_assembly.h"
#include "assembly/graph_assembler.h"
#include "graph/graph_batch.h"
#include "jobs/training_memory.h"
#include "linkldp/denoised_training.h"
#include "net/storage_failure.h"
#include "models/gin.h"
#include "net/json_body.h"
#include "net/json_response.h"
#include "train/graph_trainer.h"
#include "train/lpgnn_pipeline.h"

namespace ldpgraph {
namespace {

using nlohmann::json;

bool StartsWith(const std::string& s, const std::string& prefix) { return s.compare(0, prefix.size(), prefix) == 0; }

// One prediction: the class (by name in `classes` when it has one) and the
// probabilities of row `row`.
json Prediction(const Matrix& probs, Eigen::Index row, const json& classes) {
  Eigen::Index best = 0;
  probs.row(row).maxCoeff(&best);
  json p = json::array();
  for (Eigen::Index c = 0; c < probs.cols(); ++c) p.push_back(probs(row, c));
  return {{"class", static_cast<std::size_t>(best) < classes.size() ? classes[best] : json(best)},
          {"probabilities", p}};
}

// The answer {"classes", "model_version", "predictions"}: for each of
// `ids`, the prediction of its row (row_of) with the id under `id_key`.
// Written one prediction at a time: a JSON document of 10^6 predictions
// would hold about 600 MB where the text takes 80.
template <typename Id, typename RowOf>
HttpResponse PredictionsAnswer(std::uint64_t version, const json& classes, const Matrix& probs,
                               const std::vector<Id>& ids, const char* id_key, RowOf row_of) {
  std::string text = "{\"classes\":" + classes.dump() + ",\"model_version\":" + std::to_string(version) +
                     ",\"predictions\":[";
  for (std::size_t i = 0; i < ids.size(); ++i) {
    json one = Prediction(probs, row_of(i), classes);
    one[id_key] = ids[i];
    text += (i ? "," : "") + one.dump();
  }
  text += "]}";
  return JsonResponse(200, std::move(text));
}

// An embedding graph (GW-LDP) holds its owner's encoded embeddings, not
// friend lists: no GNN trains on it or predicts for it.
std::optional<HttpResponse> RefuseEmbeddingGraph(const GraphConfig& g) {
  if (!g.embedding.enabled) return std::nullopt;
  return ErrorResponse(422, "embedding_graph",
                       "graph " + std::to_string(g.graph_id) +
                           " holds its owner's LDP-encoded embeddings, not friend lists: compare it with POST /v1/admin/gw");
}

// The graph ids of `body[key]`: every id must be a registered graph, none an
// embedding graph.
std::optional<HttpResponse> ReadGraphIds(ServiceContext& ctx, const json& body, const char* key, std::size_t max,
                                         std::vector<GraphConfig>* out) {
  const json& list = body[key];
  if (!list.is_array() || list.empty() || list.size() > max) {
    return ErrorResponse(400, "invalid_request",
                         std::string("\"") + key + "\" must be a non-empty array of at most " + std::to_string(max) +
                             " graph ids");
  }
  std::set<std::uint64_t> named;  // a graph named twice is assembled and answered once
  for (std::size_t i = 0; i < list.size(); ++i) {
    const json& id = list[i];
    if (!id.is_number_unsigned()) {
      return ErrorResponse(400, "invalid_request", std::string(key) + "[" + std::to_string(i) + "] = " + JsonShown(id) +
                                                       " is not an unsigned integer");
    }
    if (!named.insert(id.get<std::uint64_t>()).second) continue;
    auto graph = ctx.graphs.Find(id.get<std::uint64_t>());
    if (!graph) return ErrorResponse(404, "unknown_graph", "no graph " + id.dump());
    if (auto refused = RefuseEmbeddingGraph(graph->config)) return refused;
    out->push_back(graph->config);
  }
  return std::nullopt;
}

// The distinct ids of body["nodes"] (a user named twice is predicted once),
// in the order first named; each must be below `n`.
std::optional<HttpResponse> ReadNodeIds(const json& body, std::uint64_t n, const std::string& below,
                                        std::vector<std::uint32_t>* out) {
  const json& list = body["nodes"];
  if (!list.is_array() || list.empty() || list.size() > kMaxPredictNodes) {
    return ErrorResponse(400, "invalid_request",
                         "body must be {\"nodes\": [ids]} with 1 to " + std::to_string(kMaxPredictNodes) + " ids");
  }
  std::unordered_set<std::uint64_t> named;  // sized by the request, not by the graph
  named.reserve(list.size());
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (!list[i].is_number_unsigned()) {
      return ErrorResponse(400, "invalid_request", "nodes[" + std::to_string(i) + "] = " + JsonShown(list[i]) +
                                                       " is not an unsigned integer");
    }
    const std::uint64_t u = list[i].get<std::uint64_t>();
    if (u >= n) {
      return ErrorResponse(400, "out_of_range", "nodes[" + std::to_string(i) + "] = " + std::to_string(u) +
                                                    " is not below " + below + " = " + std::to_string(n));
    }
    if (named.insert(u).second) out->push_back(static_cast<std::uint32_t>(u));
  }
  return std::nullopt;
}

HttpResponse SetSymmetrisation(ServiceContext& ctx, const HttpRequest& request, const std::string& id_text) {
  const std::optional<std::uint64_t> id = ParseGraphId(id_text);
  if (!id) return ErrorResponse(400, "invalid_request", "graph id '" + id_text + "' is not an unsigned integer");
  if (!ctx.graphs.Find(*id)) return ErrorResponse(404, "unknown_graph", "no graph " + id_text);
  json body;
  if (auto refused = ReadJsonBody(request.body, {"rule"}, &body)) return *refused;
  Result<Symmetrisation> rule = Status::InvalidArgument("body must be {\"rule\": \"none\" | \"or\" | \"and\"}");
  if (body.contains("rule") && body["rule"].is_string()) {
    rule = ParseSymmetrisation(body["rule"].get<std::string>());
  }
  if (!rule.ok()) return ErrorResponse(400, "invalid_request", rule.status().message());
  Status s = ctx.store->SetGraphSymmetrisation(*id, SymmetrisationName(*rule));
  if (!s.ok()) return ErrorResponse(503, "unavailable", s.message());
  return JsonResponse(200, json{{"graph_id", *id}, {"rule", SymmetrisationName(*rule)}}.dump());
}

HttpResponse SetLabel(ServiceContext& ctx, const HttpRequest& request, const std::string& id_text) {
  const std::optional<std::uint64_t> id = ParseGraphId(id_text);
  if (!id) return ErrorResponse(400, "invalid_request", "graph id '" + id_text + "' is not an unsigned integer");
  if (!ctx.graphs.Find(*id)) return ErrorResponse(404, "unknown_graph", "no graph " + id_text);
  json body;
  if (auto refused = ReadJsonBody(request.body, {"label"}, &body)) return *refused;
  if (!body.contains("label") || !body["label"].is_number_unsigned() ||
      body["label"].get<std::uint64_t>() > 0xFFFFFFFFull) {
    return ErrorResponse(400, "invalid_request", "body must be {\"label\": k} with k an unsigned 32-bit integer");
  }
  Status s = ctx.store->SetGraphLabel(*id, body["label"].get<std::uint32_t>());
  if (!s.ok()) return ErrorResponse(503, "unavailable", s.message());
  return JsonResponse(200, json{{"graph_id", *id}, {"label", body["label"]}}.dump());
}

// A node job's "round": of a graph collected in rounds, one whose graph
// can still be assembled (default: the open round, reports so far); of a
// graph collected once, none.
std::optional<HttpResponse> ReadJobRound(ServiceContext& ctx, const json& body, const RegisteredGraph& graph,
                                         std::uint32_t* round) {
  const std::uint64_t id = graph.config.graph_id;
  if (!graph.rounds.enabled) {
    if (body.contains("round")) {
      return ErrorResponse(400, "invalid_request", "graph " + std::to_string(id) + " is collected once: it has no rounds");
    }
    *round = kNewestRound;
    return std::nullopt;
  }
  Result<std::optional<RoundState>> stored = ctx.store->RoundStateOf(id);
  if (!stored.ok()) return StorageFailureResponse(ctx.logger, "rounds", stored.status());
  if (!*stored) return ErrorResponse(503, "unavailable", "the store has no round of graph " + std::to_string(id));
  const RoundState& state = **stored;
  *round = state.current;
  if (!body.contains("round")) return std::nullopt;
  const json& r = body["round"];
  if (!r.is_number_unsigned() || r.get<std::uint64_t>() < state.OldestKept() || r.get<std::uint64_t>() > state.current) {
    return ErrorResponse(400, "out_of_range",
                         "round = " + JsonShown(r) + ": graph " + std::to_string(id) + " keeps rounds " +
                             std::to_string(state.OldestKept()) + " to " + std::to_string(state.current) +
                             " (the open one)");
  }
  *round = r.get<std::uint32_t>();
  return std::nullopt;
}

HttpResponse StartJob(ServiceContext& ctx, const HttpRequest& request) {
  json body;
  if (auto refused = ReadJsonBody(request.body, {}, &body, /*empty_is_object=*/true)) return *refused;
  return StartJobFromJson(ctx, body);
}

}  // namespace

HttpResponse StartJobFromJson(ServiceContext& ctx, const json& body) {
  if (body.contains("task") && body["task"] == "gap") return StartGapJob(ctx, body);
  if (auto unknown = CheckKnownFields(body, {"task", "graphs", "graph", "round", "model", "label_method", "epochs",
                                              "seed", "symmetrise", "hidden", "layers", "node_input", "denoise",
                                              "products"})) {
    return *unknown;
  }
  GraphJobRequest job;
  for (const char* key : {"task", "model", "label_method"}) {
    if (body.contains(key) && !body[key].is_string()) {
      return ErrorResponse(400, "invalid_request", std::string(key) + " must be a string");
    }
  }
  const std::string task = body.value("task", "graph");
  if (task != "graph" && task != "node") {
    return ErrorResponse(400, "invalid_request", "task must be \"graph\", \"node\" or \"gap\"");
  }
  // A field of the other kind of job would do nothing here (issue 66:
  // {"graph": 10} queued a graph job over every labelled graph).
  static const JsonKeys kNodeOnly = {"graph", "round", "model", "label_method", "denoise"};
  static const JsonKeys kGraphOnly = {"graphs", "layers", "node_input", "products"};
  for (std::string_view key : task == "node" ? kGraphOnly : kNodeOnly) {
    if (body.contains(std::string(key))) {
      return ErrorResponse(400, "invalid_request",
                           "\"" + std::string(key) + "\" is for " +
                               (task == "node" ? "graph jobs (GIN)" : "node jobs (\"task\": \"node\")") +
                               "; this is a " + task + " job");
    }
  }
  if (task == "node") {
    job.task = JobTask::kNode;
    if (!body.contains("graph") || !body["graph"].is_number_unsigned()) {
      return ErrorResponse(400, "invalid_request", "a node job needs \"graph\": the id of the graph to train on");
    }
    auto graph = ctx.graphs.Find(body["graph"].get<std::uint64_t>());
    if (!graph) return ErrorResponse(404, "unknown_graph", "no graph " + body["graph"].dump());
    if (auto refused = RefuseEmbeddingGraph(graph->config)) return *refused;
    if (auto refused = ReadJobRound(ctx, body, *graph, &job.round)) return *refused;
    job.graphs.push_back(graph->config);
    const std::string model = body.value("model", "sage");
    if (model != "sage" && model != "gcn") return ErrorResponse(400, "invalid_request", "model must be \"sage\" or \"gcn\"");
    job.node_model = model == "gcn" ? NodeGnnKind::kGcn : NodeGnnKind::kSage;
    Result<LabelMethod> method = ParseLabelMethod(body.value("label_method", "drop"));
    if (!method.ok()) return ErrorResponse(400, "invalid_request", method.status().message());
    job.label_method = *method;
    // The noisy edges as reported, or denoised into the graph LPGNN trains
    // on (linkldp/); by default denoised when the reports were made for it.
    const bool denoisable = DenoisableMechanism(graph->config.edges.mechanism);
    std::string denoise = graph->config.edges.mechanism == EdgeMechanism::kRrDegree ? "ours" : "none";
    if (body.contains("denoise")) denoise = body["denoise"].is_string() ? body["denoise"].get<std::string>() : "?";
    Result<LinkDenoising> d = ParseLinkDenoising(denoise);
    if (denoise != "none" && !d.ok()) {
      return ErrorResponse(400, "invalid_request", "denoise must be \"none\", \"blink\" or \"ours\"");
    }
    if (denoise != "none") {
      if (!denoisable) {
        return ErrorResponse(422, "cannot_train",
                             std::string("graph ") + body["graph"].dump() + "'s edges (" +
                                 EdgeMechanismName(graph->config.edges.mechanism) +
                                 ") are not RR reports the link denoiser can use (rr, dprr or rr-degree)");
      }
      job.denoise = *d;
    }
  }
  if (body.contains("node_input")) {
    GinConfig check;
    Status s = body["node_input"].is_string() ? SetGinNodeInput(body["node_input"].get<std::string>(), &check)
                                              : Status::InvalidArgument("node_input must be a string");
    if (!s.ok()) return ErrorResponse(400, "invalid_request", s.message());
    job.node_input = body["node_input"].get<std::string>();
  }
  if (body.contains("products")) {
    const json& products = body["products"];
    if (!products.is_string() || (products != "float" && products != "bf16")) {
      return ErrorResponse(400, "invalid_request", "products must be \"float\" or \"bf16\"");
    }
    job.bf16_products = products == "bf16";
  }
  if (job.task == JobTask::kGraph) {  // a node job's graph is chosen above; its users bring the labels
    auto labels = ctx.store->GraphLabels();
    if (!labels.ok()) return ErrorResponse(503, "unavailable", labels.status().message());
    std::vector<GraphConfig> chosen;
    if (body.contains("graphs")) {
      if (auto bad = ReadGraphIds(ctx, body, "graphs", 1000000, &chosen)) return *bad;
    } else {
      for (const auto& registered : ctx.graphs.All()) {
        const GraphConfig& g = registered->config;
        if (labels->count(g.graph_id) && !g.embedding.enabled) chosen.push_back(g);
      }
    }
    for (const GraphConfig& g : chosen) {
      auto label = labels->find(g.graph_id);
      if (label == labels->end()) {
        return ErrorResponse(422, "unlabelled_graph", "graph " + std::to_string(g.graph_id) + " has no label");
      }
      job.graphs.push_back(g);
      job.labels.push_back(label->second);
    }
  }
  auto read_int = [&](const char* key, int lo, int hi, int* out) -> bool {
    if (!body.contains(key)) return true;
    if (!body[key].is_number_integer() || body[key].get<std::int64_t>() < lo || body[key].get<std::int64_t>() > hi) return false;
    *out = body[key].get<int>();
    return true;
  };
  if (!read_int("epochs", 1, 100000, &job.max_epochs) || !read_int("hidden", 1, 4096, &job.hidden) ||
      !read_int("layers", 2, 64, &job.layers)) {
    return ErrorResponse(400, "invalid_request", "epochs must be in [1, 100000], hidden in [1, 4096], layers in [2, 64]");
  }
  if (body.contains("seed")) {
    if (!body["seed"].is_number_unsigned()) return ErrorResponse(400, "invalid_request", "seed must be an unsigned integer");
    job.seed = body["seed"].get<std::uint64_t>();
  }
  // Each graph's own symmetrisation policy, unless the job imposes one.
  if (body.contains("symmetrise")) {
    Result<Symmetrisation> rule =
        ParseSymmetrisation(body["symmetrise"].is_string() ? body["symmetrise"].get<std::string>() : "");
    if (!rule.ok()) return ErrorResponse(400, "invalid_request", rule.status().message());
    job.rules.assign(job.graphs.size(), *rule);
    job.rule_name = SymmetrisationName(*rule);
  } else {
    Result<std::vector<Symmetrisation>> rules = SymmetrisationPolicies(ctx, job.graphs);
    if (!rules.ok()) return ErrorResponse(503, "unavailable", rules.status().message());
    job.rules = std::move(rules).value();
  }
  // Its memory, from the reports stored now: refused if it can never fit.
  Result<std::uint64_t> report_bytes = StoredReportBytes(ctx, job.graphs, job.round);
  if (!report_bytes.ok()) return StorageFailureResponse(ctx.logger, "reports", report_bytes.status());
  job.memory_bytes = TrainingMemoryEstimate(job, *report_bytes);
  if (ctx.memory != nullptr) {
    Status fits = ctx.memory->Fits(job.memory_bytes, "this training job");
    if (!fits.ok()) return ErrorResponse(422, "over_memory_budget", fits.message());
  }
  return QueueJob(ctx, std::move(job));
}

namespace {

HttpResponse Job(ServiceContext& ctx, const HttpRequest& request, const std::string& id_text, const std::string& path) {
  const std::optional<std::uint64_t> id = ParseGraphId(id_text);
  if (!id) return ErrorResponse(400, "invalid_request", "job id '" + id_text + "' is not an unsigned integer");
  if (request.method != "GET" && request.method != "DELETE") return MethodNotAllowed(request, path, "GET, DELETE");
  Result<std::optional<JobStatus>> status = ctx.jobs->Get(*id);
  if (!status.ok()) return StorageFailureResponse(ctx.logger, "jobs", status.status());
  if (!*status) return ErrorResponse(404, "unknown_job", "no job " + id_text);
  if (request.method == "GET") return JsonResponse(200, JobStatusJson(**status));
  if (!ctx.jobs->Cancel(*id)) return ErrorResponse(409, "job_over", "job " + id_text + " has already finished");
  status = ctx.jobs->Get(*id);
  if (!status.ok()) return StorageFailureResponse(ctx.logger, "jobs", status.status());
  return JsonResponse(202, *status ? JobStatusJson(**status) : json{{"job_id", *id}, {"state", "cancelled"}}.dump());
}

HttpResponse ListModels(ServiceContext& ctx) {
  json list = json::array();
  Result<std::map<std::uint64_t, std::string>> models = ctx.models->List();
  if (!models.ok()) return StorageFailureResponse(ctx.logger, "models", models.status());
  for (const auto& [version, about] : *models) {
    json entry = json::parse(about, nullptr, false);
    if (entry.is_discarded()) entry = json::object();
    entry["version"] = version;
    list.push_back(entry);
  }
  return JsonResponse(200, json{{"models", list}}.dump());
}

// Node models: class and probabilities of users of the graph the model was
// trained on, the graph assembled now (reports that arrived since count).
HttpResponse PredictNodes(ServiceContext& ctx, const json& about, std::uint64_t version, const json& body) {
  auto graph = ctx.graphs.Find(about["graphs"][0].get<std::uint64_t>());
  if (!graph) return ErrorResponse(404, "unknown_graph", "the model's graph is gone");
  std::vector<std::uint32_t> rows;
  if (auto bad = ReadNodeIds(body, graph->config.num_users, "the graph's n", &rows)) return *bad;
  Result<AnyModel> model = ctx.models->Load(version);
  if (!model.ok()) return ErrorResponse(503, "unavailable", model.status().message());
  MemoryBudget::Lease lease;
  const NodeGnnConfig& c = model->node->config();
  const std::uint64_t features = graph->config.features.enabled ? graph->config.features.params.dims : 0;
  Result<std::uint64_t> report_bytes = StoredReportBytes(ctx, {graph->config}, about.value("round", kNewestRound));
  if (!report_bytes.ok()) return StorageFailureResponse(ctx.logger, "reports", report_bytes.status());
  if (auto refused = LeaseForRequest(ctx.memory, "this prediction",
                                     PredictionMemory(graph->config.num_users, c.hidden, c.layers, features,
                                                      rows.size(), about["classes"].size(), *report_bytes),
                                     &lease)) {
    return *refused;
  }
  Result<Matrix> probs = NodeModelProbabilities(ctx, about, *model, graph->config);
  if (!probs.ok()) return ErrorResponse(503, "unavailable", probs.status().message());
  return PredictionsAnswer(version, about["classes"], *probs, rows, "node",
                           [&](std::size_t i) { return static_cast<Eigen::Index>(rows[i]); });
}

// GAP and ProGAP models: the predictions they made from their release when trained
// (aggregating again would draw new noise and spend more budget).
HttpResponse PredictGap(ServiceContext& ctx, const json& about, std::uint64_t version, const json& body) {
  Result<AnyModel> model = ctx.models->Load(version);
  if (!model.ok()) return ErrorResponse(503, "unavailable", model.status().message());
  if (model->kind != ModelKind::kGap) return ErrorResponse(503, "unavailable", "the model file is not a GAP model");
  const Matrix& probs = model->gap->node_probabilities;
  std::vector<std::uint32_t> rows;
  if (auto bad = ReadNodeIds(body, static_cast<std::uint64_t>(probs.rows()), "the held graph's num_nodes", &rows)) {
    return *bad;
  }
  return PredictionsAnswer(version, about["classes"], probs, rows, "node",
                           [&](std::size_t i) { return static_cast<Eigen::Index>(rows[i]); });
}

HttpResponse Predict(ServiceContext& ctx, const HttpRequest& request, const std::string& version_text) {
  const std::optional<std::uint64_t> version = ParseGraphId(version_text);
  if (!version) return ErrorResponse(400, "invalid_request", "model version '" + version_text + "' is not an unsigned integer");
  Result<std::optional<std::string>> found = ctx.models->About(*version);
  if (!found.ok()) return StorageFailureResponse(ctx.logger, "models", found.status());
  const std::optional<std::string>& about_text = *found;
  if (!about_text) return ErrorResponse(404, "unknown_model", "no model version " + version_text);
  const json about = json::parse(*about_text, nullptr, false);
  const std::string kind = about.is_discarded() ? "" : about.value("model", "");
  const bool gap = kind == "gap" || kind == "progap";  // a held graph's release
  const bool node = !about.is_discarded() && about.value("task", "graph") == "node";
  json body;
  if (auto refused = ReadJsonBody(request.body, {gap || node ? "nodes" : "graphs"}, &body)) return *refused;
  if (gap) return PredictGap(ctx, about, *version, body);
  if (node) return PredictNodes(ctx, about, *version, body);
  std::vector<GraphConfig> graphs;
  if (auto bad = ReadGraphIds(ctx, body, "graphs", kMaxPredictGraphs, &graphs)) return *bad;
  Result<AnyModel> model = ctx.models->Load(*version);
  if (!model.ok()) return ErrorResponse(503, "unavailable", model.status().message());
  if (model->kind != ModelKind::kGin) return ErrorResponse(422, "wrong_task", "model " + version_text + " is not a graph classifier");
  std::uint64_t users = 0;
  for (const GraphConfig& g : graphs) users += g.num_users;
  MemoryBudget::Lease lease;
  const GinConfig& gin = model->gin->config();
  Result<std::uint64_t> report_bytes = StoredReportBytes(ctx, graphs);
  if (!report_bytes.ok()) return StorageFailureResponse(ctx.logger, "reports", report_bytes.status());
  if (auto refused = LeaseForRequest(ctx.memory, "this prediction",
                                     PredictionMemory(users, gin.hidden, gin.layers, gin.input_dim, graphs.size(),
                                                      about.is_discarded() ? 0 : about.value("classes", json::array()).size(),
                                                      *report_bytes),
                                     &lease)) {
    return *refused;
  }
  Result<Matrix> probs = GraphModelProbabilities(ctx, about, *model, graphs);
  if (!probs.ok()) return ErrorResponse(503, "unavailable", probs.status().message());
  const json classes = !about.is_discarded() && about.contains("classes") ? about["classes"] : json::array();
  std::vector<std::uint64_t> graph_ids;
  for (const GraphConfig& g : graphs) graph_ids.push_back(g.graph_id);
  return PredictionsAnswer(*version, classes, *probs, graph_ids, "graph_id",
                           [](std::size_t i) { return static_cast<Eigen::Index>(i); });
}

}  // namespace

bool IsLongLearningRequest(const HttpRequest& request, const std::string& path) {
  if (request.method != "POST") return false;
  return path == "/v1/admin/jobs" || PathParameter(path, "/v1/admin/models/", "/predict").has_value();
}

std::optional<HttpResponse> HandleLearning(ServiceContext& ctx, const HttpRequest& request, const std::string& path) {
  static const std::string kGraphs = "/v1/admin/graphs/";
  static const std::string kJobs = "/v1/admin/jobs", kModels = "/v1/admin/models";
  if (ctx.jobs == nullptr || ctx.models == nullptr) return std::nullopt;
  if (std::optional<std::string> id = PathParameter(path, kGraphs, "/label")) {
    if (request.method != "PUT") return MethodNotAllowed(request, path, "PUT");
    return SetLabel(ctx, request, *id);
  }
  if (std::optional<std::string> id = PathParameter(path, kGraphs, "/symmetrise")) {
    if (request.method != "PUT") return MethodNotAllowed(request, path, "PUT");
    return SetSymmetrisation(ctx, request, *id);
  }
  if (path == kJobs) {
    if (request.method == "POST") return StartJob(ctx, request);
    if (request.method != "GET") return MethodNotAllowed(request, path, "GET, POST");
    std::string list;
    Result<std::vector<JobStatus>> all = ctx.jobs->All();
    if (!all.ok()) return StorageFailureResponse(ctx.logger, "jobs", all.status());
    for (const JobStatus& s : *all) list += (list.empty() ? "" : ",") + JobStatusJson(s);
    return JsonResponse(200, "{\"jobs\":[" + list + "]}");
  }
  if (StartsWith(path, kJobs + "/")) return Job(ctx, request, path.substr(kJobs.size() + 1), path);
  if (path == kModels) {
    if (request.method != "GET") return MethodNotAllowed(request, path, "GET");
    return ListModels(ctx);
  }
  if (std::optional<std::string> version = PathParameter(path, kModels + "/", "/predict")) {
    if (request.method != "POST") return MethodNotAllowed(request, path, "POST");
    return Predict(ctx, request, *version);
  }
  return std::nullopt;
}

}  // namespace ldpgraph
