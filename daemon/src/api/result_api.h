// GET /v1/graphs/{graph_id}/result: a device's own result, with the user's
// own token (the token decides whose; no parameter can name another user).
// What the latest model covering the graph says about her: a node model,
// her class and probabilities; a graph model, her graph's. 404 no_result
// while no model covers the graph; rate-limited like uploads. The first
// request after a model is trained computes every user's result on the
// query worker (under the memory budget); later ones read the ResultCache.
// JSON, or binary with "Accept: application/x-ldpgraph-result" (the SDK's
// Uploader::FetchResult).
#ifndef LDPGRAPH_DAEMON_API_RESULT_API_H_
#define LDPGRAPH_DAEMON_API_RESULT_API_H_

#include <string>

#include "api/service_context.h"
#include "net/http_types.h"

namespace ldpgraph {

void AnswerDeviceResult(ServiceContext& ctx, const HttpRequest& request, const std::string& graph_id_text,
                        Respond respond);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_API_RESULT_API_H_
