// GW-LDP on the daemon (seed 000): graphs whose owners each sent their
// node embeddings LDP-encoded (an embedding graph, GraphConfig::embedding,
// one report), compared by fused GW on the server's unbiased estimates of
// those embeddings (gw/private_embedding.h), as `ldpgraph gw` compares
// them; or, for summary graphs (EmbeddingEncoding::kSummary), on the
// points of every report of their grid denoised together
// (api/summary_graphs.h), as `ldpgraph gw --encoder summary` does.
// Graphs of different encodings or grids do not compare (409
// different_encodings, different_grids). Behind the admin token (checked
// by HandleAdmin):
//   POST /v1/admin/gw          {"a": id, "b": id, "alpha": 0.5}
//        -> {"a", "b", "gw", "encoding", "nodes_a", "nodes_b" (multibit) or
//            "denoised_with" (summary: the reports of its grid), "seconds"}
//   POST /v1/admin/gw/nearest  {"graph": id, "k": 5, "alpha": 0.5, "among": "all"|"labelled"}
//        -> {"graph", "compared", "encoding", "nearest": [{"graph", "gw", "label"?}, ...],
//            "predicted_label"?}: the k embedding graphs closest to one
//        among all of its encoding (and grid) that have reported, by GW
//        then id, with the labels an admin set, and
//        the majority of those labels (k-NN; ties to the smaller label).
// 404 for an unknown graph, 409 for a graph that is no embedding graph or
// has no report yet; every comparison reads only the stored reports.
#ifndef LDPGRAPH_DAEMON_API_GW_API_H_
#define LDPGRAPH_DAEMON_API_GW_API_H_

#include <optional>
#include <string>

#include "api/service_context.h"
#include "net/http_types.h"

namespace ldpgraph {

// Whether `path` is a GW resource (they compute for long: the Api runs them
// on the query worker).
bool IsGwPath(const std::string& path);

// The answer for `path` when it is a GW resource; nullopt otherwise.
std::optional<HttpResponse> HandleGw(ServiceContext& ctx, const HttpRequest& request, const std::string& path);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_API_GW_API_H_
