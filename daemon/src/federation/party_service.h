// A party's side of FedCog over the network: the handler of the federation
// listener (mutual TLS; federation_config.h). The coordinator drives a run
// through these routes, all POST except the last, bodies binary
// (federation_wire.h) unless JSON is said:
//   /v1/federation/runs/{run}/open     JSON {"held_graph", "parties": [names,
//        in the run's order], "steps", "seed", "train_fraction",
//        "val_fraction", "lnnc"}: load this party's share, split its users,
//        (LNNC), start propagation. Answers JSON {"users", "train", "val",
//        "test", "feature_dims", "classes", "lnnc_edges"}. Opening a run
//        again starts it over.
//   /v1/federation/runs/{run}/send?step=K      -> this party's partial sums
//   /v1/federation/runs/{run}/receive?step=K   <- the sums for its users
//   /v1/federation/runs/{run}/round?gradient=0|1  <- weights, -> PartyRound
//   /v1/federation/runs/{run}/finish   JSON {"weights": base64url(matrices),
//        "best_round", "val_accuracy", "test_accuracy"}: writes the model
//        file (federated_model.h); a repeat with the same weights is a no-op
//   DELETE /v1/federation/runs/{run}[?discard_model=1]   forget the run's
//        state (and remove its model: the run failed while finishing)
// Refusals: 403 unknown_party for a certificate whose name is not a
// configured party; 403 not_coordinator (logged as federation_refused) for
// any route of a run, open and DELETE included, asked by another party than
// the one that coordinates it (known from the run's state, or from its
// model file once the run is over); 404
// unknown_run (after a restart: the coordinator opens it again); 409
// out_of_order for a step asked out of turn; 400 for a bad body; 422 when
// the share does not fit the run.
// Thread-safety: Handle may be called from any thread.
#ifndef LDPGRAPH_DAEMON_FEDERATION_PARTY_SERVICE_H_
#define LDPGRAPH_DAEMON_FEDERATION_PARTY_SERVICE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "federation/federated_model.h"
#include "federation/federation_config.h"
#include "net/http_types.h"
#include "net/logger.h"
#include "store/held_graph_store.h"

namespace ldpgraph {

class PartyService {
 public:
  // Models go to `models_dir` (created if missing). Errors: kUnavailable
  // when it cannot be made.
  static Result<std::unique_ptr<PartyService>> Create(const FederationConfig& config, HeldGraphStore* held,
                                                      std::string models_dir, Logger* logger);
  ~PartyService();

  void Handle(const HttpRequest& request, Respond respond);

  // The models this party holds: run -> summary JSON, increasing.
  std::map<std::uint64_t, std::string> Models() const;
  // Errors: kFailedPrecondition for an unknown run; the decoder's.
  Result<FederatedModel> LoadModel(std::uint64_t run) const;

 private:
  struct Run;
  PartyService(const FederationConfig& config, HeldGraphStore* held, std::string models_dir, Logger* logger);
  HttpResponse Route(const HttpRequest& request);
  HttpResponse Open(std::uint64_t id, const std::string& coordinator, const std::string& body);
  HttpResponse Forget(std::uint64_t id, const HttpRequest& request);
  // The coordinator of run `id` as this party knows it; empty when it holds
  // neither state nor a model of the run.
  std::string CoordinatorOf(std::uint64_t id) const;
  // 403 not_coordinator, logged.
  HttpResponse NotTheCoordinator(std::uint64_t id, const std::string& caller, const std::string& coordinator,
                                 const std::string& action) const;
  HttpResponse Finish(Run& run, std::uint64_t id, const std::string& body);
  std::string ModelPath(std::uint64_t run) const;

  FederationConfig config_;
  HeldGraphStore* held_;
  std::string models_dir_;
  Logger* logger_;
  mutable std::mutex mu_;
  // Held while a run is opened or forgotten: the check that the caller
  // coordinates it and the change are one step.
  std::mutex claim_mu_;
  std::map<std::uint64_t, std::shared_ptr<Run>> runs_;
  std::uint64_t uses_ = 0;  // for evicting the run used least recently
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_FEDERATION_PARTY_SERVICE_H_
