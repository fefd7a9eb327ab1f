#include "api/held_graph_api.h"

#include <cmath>

#include <nlohmann/json.hpp>

#include "api/queue_job.h"
#include "api/routes.h"
#include "gap/gap_pipeline.h"
#include "gap/held_graph_json.h"
#include "gap/progap_pipeline.h"
#include "jobs/memory_budget.h"
#include "net/json_body.h"
#include "net/json_response.h"
#include "net/storage_failure.h"
#include "requests/gap_request_json.h"
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
