// FedCog behind the admin token (checked by HandleAdmin); the parties'
// own exchange is on the federation listener (federation/party_service.h).
// On the daemon a run is started on (the coordinator):
//   POST   /v1/admin/federation/runs {"held_graph": id, "steps": 2,
//          "epochs": 200, "lr": 0.2, "weight_decay": 5e-4, "seed": 0,
//          "train_fraction": 0.5, "val_fraction": 0.25, "lnnc": false}
//          -> 202 {"run": id}; 400 naming a bad field; 429 when 4 runs are in flight
//   GET    /v1/admin/federation/runs          every run's status
//   GET    /v1/admin/federation/runs/{run}    its status: state (running,
//          succeeded, failed, cancelled), phase, step, round, accuracies,
//          recoveries, bytes per party, seconds
//   DELETE /v1/admin/federation/runs/{run}    cancel (202)
// On every party:
//   GET    /v1/admin/federation/models               the models it holds
//   GET    /v1/admin/federation/models/{run}         one's summary
//   POST   /v1/admin/federation/models/{run}/predict {"keys": [...]}: the
//          class and probabilities of its users (by key) from that run
// A daemon without [federation] answers 409 not_federated.
#ifndef LDPGRAPH_DAEMON_API_FEDERATION_API_H_
#define LDPGRAPH_DAEMON_API_FEDERATION_API_H_

#include <optional>
#include <string>

#include "api/service_context.h"
#include "net/http_types.h"

namespace ldpgraph {

// The answer for `path` when it is a federation resource; nullopt otherwise.
std::optional<HttpResponse> HandleFederation(ServiceContext& ctx, const HttpRequest& request, const std::string& path);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_API_FEDERATION_API_H_
