// Held graphs and GAP, behind the admin token (checked by HandleAdmin):
//   PUT    /v1/admin/held-graphs/{id}    upload a whole graph, trusted to the server (201;
//          409 if the id is taken; 400 naming the first bad item, nothing stored)
//          {"num_nodes": n, "classes": c, "feature_dims": d, "edges": [[u, v], ...],
//           "features": [[node, feature, value], ...], "labels": [per node, -1: none]}
//   GET    /v1/admin/held-graphs         every held graph's summary
//   DELETE /v1/admin/held-graphs/{id}    take it back (models trained on it keep only
//                                        their released predictions)
// and, through the learning routes (learning_api.h):
//   POST /v1/admin/jobs {"task": "gap", "held_graph": id, "privacy": "edge"|"node",
//        "epsilon": E|"inf", "delta", "hops", "max_degree", "batch_size", "clip",
//        "epochs", "hidden", "lr", "seed"}: train GAP (202)
//   POST /v1/admin/models/{v}/predict {"nodes": [ids]} for a GAP model: the predictions it
//        made from its release when it was trained (learning_api.cc)
#ifndef LDPGRAPH_DAEMON_API_HELD_GRAPH_API_H_
#define LDPGRAPH_DAEMON_API_HELD_GRAPH_API_H_

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "api/service_context.h"
#include "gap/held_graph.h"
#include "net/http_types.h"
#include "net/https_server_options.h"

namespace ldpgraph {

// The answer for `path` when it is a held-graph resource; nullopt otherwise.
std::optional<HttpResponse> HandleHeldGraphs(ServiceContext& ctx, const HttpRequest& request, const std::string& path);

// PUT /v1/admin/held-graphs/{id}: parsing the body computes for long (the
// API routes it to the query worker).
bool IsHeldGraphUpload(const HttpRequest& request, const std::string& path);

// What an upload holds at its peak: the body as it is read (its string
// grows by doubling), its JSON document (7 to 8 bytes per byte of body)
// and the parts read from it, before the document is dropped (measured:
// 12.2x a 7 MB body, `ldpgraph bench admin`; 13 counted).
std::uint64_t UploadMemory(std::uint64_t body_bytes);

// An upload decided from its header, before its body is read
// (HttpsServerOptions::admit_upload): its UploadMemory leased from the
// budget until the request is done, or the refusal (422
// over_memory_budget when it can never fit, 503 busy with Retry-After
// while others hold the room).
HttpsServerOptions::UploadAdmission AdmitUpload(ServiceContext& ctx, std::uint64_t content_length);

// POST /v1/admin/jobs with "task": "gap" (`body`: the request's JSON object,
// read by ReadJsonBody).
HttpResponse StartGapJob(ServiceContext& ctx, const nlohmann::json& body);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_API_HELD_GRAPH_API_H_
