#include "api/held_graph_api.h"

#include <cmath>

#include <nlohmann/json.hpp>

#include "api/queue_job.h"
#include "api/routes.h"
#include "gap/held_graph_json.h"
#include "jobs/memory_budget.h"
#include "net/json_body.h"
#include "net/json_response.h"
#include "net/storage_failure.h"
#include "train/graph_trainer.h"
#include "train/splits.h"

namespace ldpgraph {
namespace {

using nlohmann::json;

const JsonKeys kUploadFields(std::begin(kHeldGraphJsonKeys), std::end(kHeldGraphJsonKeys));

HttpResponse Upload(ServiceContext& ctx, const HttpRequest& request, const std::string& id_text) {
  const std::optional<std::uint64_t> id = ParseGraphId(id_text);
  if (!id) return ErrorResponse(400, "invalid_request", "held graph id '" + id_text + "' is not an unsigned integer");
  // Leased before its body was read (AdmitUpload), or here for a request
  // that came another way (the fuzzer, the tests' direct calls).
  MemoryBudget::Lease lease;
  if (request.admission == nullptr) {
    if (auto refused = LeaseForRequest(ctx.memory, "this upload", UploadMemory(request.body.size()), &lease)) {
      return *refused;
    }
  }
  json body;
  if (auto refused = ReadJsonBody(request.body, kUploadFields, &body)) return *refused;
  Result<HeldGraphParts> parts = HeldGraphPartsFromJson(body, *id);
  body = json();  // the parts hold it all now
  if (!parts.ok()) return ErrorResponse(400, "invalid_graph", parts.status().message());
  Result<HeldGraph> graph = MakeHeldGraph(*parts);
  if (!graph.ok()) return ErrorResponse(400, "invalid_graph", graph.status().message());
  Status added = ctx.held_graphs->Add(*graph);
  if (added.code() == StatusCode::kFailedPrecondition) return ErrorResponse(409, "exists", added.message());
  if (!added.ok()) return StorageFailureResponse(ctx.logger, "held graph " + id_text, added);
  ctx.logger->Info("held_graph_stored", {{"held_graph", id_text},
                                         {"num_nodes", std::to_string(graph->graph.num_nodes())},
                                         {"edges", std::to_string(graph->edges())}});
  return JsonResponse(201, HeldGraphStore::Summary(*graph));
}

HttpResponse Remove(ServiceContext& ctx, const std::string& id_text) {
  const std::optional<std::uint64_t> id = ParseGraphId(id_text);
  if (!id) return ErrorResponse(400, "invalid_request", "held graph id '" + id_text + "' is not an unsigned integer");
  Status removed = ctx.held_graphs->Remove(*id);
  if (removed.code() == StatusCode::kFailedPrecondition) return ErrorResponse(404, "unknown_held_graph", removed.message());
  if (!removed.ok()) return ErrorResponse(503, "unavailable", removed.message());
  ctx.logger->Info("held_graph_removed", {{"held_graph", id_text}});
  return JsonResponse(200, json{{"graph_id", *id}, {"removed", true}}.dump());
}

HttpResponse List(ServiceContext& ctx) {
  json list = json::array();
  Result<std::map<std::uint64_t, std::string>> held = ctx.held_graphs->List();
  if (!held.ok()) return StorageFailureResponse(ctx.logger, "held graphs", held.status());
  for (const auto& [id, summary] : *held) {
    json entry = json::parse(summary, nullptr, false);
    list.push_back(entry.is_discarded() ? json{{"graph_id", id}} : entry);
  }
  return JsonResponse(200, json{{"held_graphs", list}}.dump());
}

}  // namespace

Status GapOptionsFromJson(const json& body, GraphJobRequest* job) {
  GapOptions& o = job->gap;
  for (const char* key : {"privacy", "residual", "model"}) {
    if (body.contains(key) && !body[key].is_string()) return Status::InvalidArgument(std::string(key) + " must be a string");
  }
  const std::string model = body.value("model", "gap");
  if (model != "gap" && model != "progap") return Status::InvalidArgument("model must be \"gap\" or \"progap\"");
  job->progap = model == "progap";
  if (job->progap && body.contains("residual")) return Status::InvalidArgument("residual is for \"model\": \"gap\"");
  const std::string privacy = body.value("privacy", "edge");
  if (privacy != "edge" && privacy != "node") return Status::InvalidArgument("privacy must be \"edge\" or \"node\"");
  o.privacy = privacy == "node" ? GapPrivacy::kNode : GapPrivacy::kEdge;
  if (!body.contains("epsilon")) return Status::InvalidArgument("a GAP job needs \"epsilon\" (a number, or \"inf\")");
  const json& e = body["epsilon"];
  if (e.is_string() && e.get<std::string>() == "inf") {
    o.epsilon = INFINITY;
  } else if (e.is_number() && e.get<double>() > 0 && std::isfinite(e.get<double>())) {
    o.epsilon = e.get<double>();
  } else {
    return Status::InvalidArgument("epsilon must be a positive number or \"inf\"");
  }
  if (body.contains("delta")) {
    if (!body["delta"].is_number() || !(body["delta"].get<double>() > 0 && body["delta"].get<double>() < 1)) {
      return Status::InvalidArgument("delta must be in (0, 1)");
    }
    o.delta = body["delta"].get<double>();
  }
  auto integer = [&](const char* key, std::int64_t lo, std::int64_t hi, auto* out) -> Status {
    if (!body.contains(key)) return Status::Ok();
    if (!body[key].is_number_integer() || body[key].get<std::int64_t>() < lo || body[key].get<std::int64_t>() > hi) {
      return Status::InvalidArgument(std::string(key) + " must be an integer in [" + std::to_string(lo) + ", " +
                                     std::to_string(hi) + "]");
    }
    *out = static_cast<std::remove_pointer_t<decltype(out)>>(body[key].get<std::int64_t>());
    return Status::Ok();
  };
  LDPGRAPH_RETURN_IF_ERROR(integer("hops", 1, 16, &o.model.hops));
  LDPGRAPH_RETURN_IF_ERROR(integer("hidden", 1, 4096, &o.model.hidden));
  LDPGRAPH_RETURN_IF_ERROR(integer("epochs", 1, 100000, &o.encoder_epochs));
  LDPGRAPH_RETURN_IF_ERROR(integer("classifier_epochs", 1, 100000, &o.classifier_epochs));
  LDPGRAPH_RETURN_IF_ERROR(integer("max_degree", 1, 1000000, &o.max_degree));
  LDPGRAPH_RETURN_IF_ERROR(integer("batch_size", 1, 1000000000, &o.batch_size));
  const std::string residual = body.value("residual", "auto");
  if (residual != "auto" && residual != "on" && residual != "off") {
    return Status::InvalidArgument("residual must be \"auto\", \"on\" or \"off\"");
  }
  o.residual = residual == "on" ? GapResidual::kOn : residual == "off" ? GapResidual::kOff : GapResidual::kAuto;
  if (body.contains("clip") &&
      (!body["clip"].is_number() || !(body["clip"].get<double>() > 0) || !std::isfinite(body["clip"].get<double>()))) {
    return Status::InvalidArgument("clip must be a positive number");
  }
  if (body.contains("lr")) {
    LDPGRAPH_RETURN_IF_ERROR(CheckLearningRate(body["lr"].is_number() ? body["lr"].get<double>() : NAN));
  }
  o.clip_norm = body.value("clip", o.clip_norm);
  o.lr = static_cast<float>(body.value("lr", static_cast<double>(o.lr)));
  if (o.privacy == GapPrivacy::kEdge) {
    for (const char* key : {"max_degree", "batch_size", "clip"}) {
      if (body.contains(key)) return Status::InvalidArgument(std::string(key) + " is for \"privacy\": \"node\"");
    }
  }
  if (body.contains("seed")) {
    if (!body["seed"].is_number_unsigned()) return Status::InvalidArgument("seed must be an unsigned integer");
    job->seed = body["seed"].get<std::uint64_t>();
  }
  return Status::Ok();
}


std::uint64_t UploadMemory(std::uint64_t body_bytes) { return 13 * body_bytes; }

HttpsServerOptions::UploadAdmission AdmitUpload(ServiceContext& ctx, std::uint64_t content_length) {
  auto lease = std::make_shared<MemoryBudget::Lease>();
  HttpsServerOptions::UploadAdmission admitted;
  admitted.refusal = LeaseForRequest(ctx.memory, "this upload", UploadMemory(content_length), lease.get());
  if (!admitted.refusal) admitted.hold = std::move(lease);
  return admitted;
}

bool IsHeldGraphUpload(const HttpRequest& request, const std::string& path) {
  return request.method == "PUT" && PathParameter(path, kHeldGraphUploadPrefix, "").has_value();
}

std::optional<HttpResponse> HandleHeldGraphs(ServiceContext& ctx, const HttpRequest& request, const std::string& path) {
  static const std::string kRoot = "/v1/admin/held-graphs";
  if (ctx.held_graphs == nullptr) return std::nullopt;
  if (path == kRoot) {
    if (request.method != "GET") return MethodNotAllowed(request, path, "GET");
    return List(ctx);
  }
  if (std::optional<std::string> id = PathParameter(path, kRoot + "/", "")) {
    if (id->find('/') != std::string::npos) return std::nullopt;
    if (request.method == "PUT") return Upload(ctx, request, *id);
    if (request.method == "DELETE") return Remove(ctx, *id);
    return MethodNotAllowed(request, path, "PUT, DELETE");
  }
  return std::nullopt;
}

HttpResponse StartGapJob(ServiceContext& ctx, const json& body) {
  static const JsonKeys kGapFields = {"task",       "held_graph", "privacy", "epsilon",  "delta",
                                      "hops",       "hidden",     "epochs",  "lr",       "max_degree",
                                      "batch_size", "clip",       "seed",    "residual", "classifier_epochs",
                                      "model"};
  if (auto unknown = CheckKnownFields(body, kGapFields, " for a GAP job")) {
    return *unknown;
  }
  if (ctx.held_graphs == nullptr) return ErrorResponse(503, "unavailable", "this daemon keeps no held graphs");
  if (!body.contains("held_graph") || !body["held_graph"].is_number_unsigned()) {
    return ErrorResponse(400, "invalid_request", "a GAP job needs \"held_graph\": the id of an uploaded graph");
  }
  GraphJobRequest job;
  job.task = JobTask::kGap;
  if (Status s = GapOptionsFromJson(body, &job); !s.ok()) return ErrorResponse(400, "invalid_request", s.message());
  const std::uint64_t id = body["held_graph"].get<std::uint64_t>();
  Result<HeldGraph> held = ctx.held_graphs->Load(id);
  if (held.status().code() == StatusCode::kFailedPrecondition) {
    return ErrorResponse(404, "unknown_held_graph", held.status().message());
  }
  if (!held.ok()) return ErrorResponse(503, "unavailable", held.status().message());
  // Everything TrainGap would refuse, refused now: nothing is queued.
  const NodeFeatures features = NodeFeatures::Sparse(held->features);
  GapInputs in;
  in.graph = &held->graph;
  in.features = &features;
  in.labels = &held->labels;
  in.classes = held->classes;
  in.split = StratifiedSplit(held->labels, 0.50, 0.25, job.seed);
  // The noise too: an epsilon no noise multiplier reaches fails here, not
  // once the job has waited its turn.
  if (Result<GapCalibration> c = job.progap ? CalibrateProGap(in, job.gap) : CalibrateGap(in, job.gap); !c.ok()) {
    return ErrorResponse(422, "cannot_train", c.status().message());
  }
  job.memory_bytes = GapMemoryEstimate(in, job.gap);
  if (ctx.memory != nullptr) {
    Status fits = ctx.memory->Fits(job.memory_bytes, "this GAP job");
    if (!fits.ok()) return ErrorResponse(422, "over_memory_budget", fits.message());
  }
  job.held_graph = std::make_shared<const HeldGraph>(std::move(held).value());
  job.gap_request_json = body.dump();
  return QueueJob(ctx, std::move(job));
}

}  // namespace ldpgraph
