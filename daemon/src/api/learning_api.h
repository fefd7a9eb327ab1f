// /v1/admin/... for learning, behind the admin token (checked by HandleAdmin):
//   PUT    /v1/admin/graphs/{id}/label    {"label": k}: the class of a whole graph
//   PUT    /v1/admin/graphs/{id}/symmetrise  {"rule": "none"|"or"|"and"}: how its noisy rows
//                                         are made undirected (default "none": as reported)
//   POST   /v1/admin/jobs                 start training GIN-0 on labelled graphs (202)
//          {"graphs": [ids] (default: every labelled graph), "epochs": 500,
//           "seed": 0, "symmetrise": (default: each graph's policy), "hidden": 64, "layers": 5}
//   GET    /v1/admin/jobs                 every job; GET /v1/admin/jobs/{id}: one
//   DELETE /v1/admin/jobs/{id}            cancel (202), 409 when already over
//   GET    /v1/admin/models               every model version and what it was trained on
//   POST   /v1/admin/models/{v}/predict   {"graphs": [ids]}: class and probabilities per graph
#ifndef LDPGRAPH_DAEMON_API_LEARNING_API_H_
#define LDPGRAPH_DAEMON_API_LEARNING_API_H_

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "api/service_context.h"
#include "net/http_types.h"

namespace ldpgraph {

// The answer for `path` when it is a learning resource; nullopt otherwise.
std::optional<HttpResponse> HandleLearning(ServiceContext& ctx, const HttpRequest& request, const std::string& path);

// POST /v1/admin/jobs with its body read: the job resolved and queued
// (QueueJob, queue_job.h), or the answer refusing it.
HttpResponse StartJobFromJson(ServiceContext& ctx, const nlohmann::json& body);

// Whether the request computes for long (a prediction assembles graphs and
// runs the model; a job's submission loads its held graph and calibrates
// its noise): such requests run on the query worker, off the I/O threads.
bool IsLongLearningRequest(const HttpRequest& request, const std::string& path);

// Most graphs, or users of a node model's graph, one prediction request may name.
constexpr std::size_t kMaxPredictGraphs = 10000;
constexpr std::size_t kMaxPredictNodes = 1000000;

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_API_LEARNING_API_H_
