// The coordinator of FedCog runs: the daemon an operator starts a run on
// (POST /v1/admin/federation/runs) plays FedCog's parameter server and
// relays the partial sums (the paper's centralised exchange). It is a
// party too, reached like the others through its own federation listener.
// A run, on its own thread:
//   opening      every party loads its share (party_service.h);
//   propagating  K steps: each party's partial sums are collected, checked
//                (a party may only send as itself) and handed to the
//                parties they are for;
//   training     DriveFederatedSgc (federated_sgc.h) over the network;
//   finishing    every party writes the best weights and its users'
//                predictions (each file whole or not at all).
// A party that stops answering or restarts mid-run (it answers
// unknown_run) is waited for up to party_timeout_ms; once every party
// answers, the run opens again and propagates again (deterministic), and
// goes on from the round it was in with the server's weights and Adam
// state: the model is the one an uninterrupted run would give. Past the
// timeout, or on a refusal that retrying cannot fix, the run fails and the
// parties forget it; no party writes a model for a failed run.
// The run's status is kept in <runs_dir>/<run>.json, written durably at
// each phase; a run found "running" at start-up (the coordinator died) is
// marked failed.
// Thread-safety: every method may be called from any thread.
#ifndef LDPGRAPH_DAEMON_FEDERATION_COORDINATOR_H_
#define LDPGRAPH_DAEMON_FEDERATION_COORDINATOR_H_

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "store/document_store.h"
#include "federation/federated_sgc.h"
#include "federation/federation_config.h"
#include "net/logger.h"

namespace ldpgraph {

struct FedCogRunRequest {
  std::uint64_t held_graph = 0;  // the id each party holds its share under
  int steps = 2;                 // SGC's K
  FederatedSgcOptions training;
  double train_fraction = 0.5, val_fraction = 0.25;  // of each party's labelled users; the rest test
  bool lnnc = false;                                // the paper's privacy-enhanced variant
};

class Coordinator {
 public:
  // `self_port`: the port this daemon's federation listener bound.
  // `runs`: where every run's status is kept (document_store.h: files of
  // one daemon, or rows of a store several daemons share, so that any of
  // them answers for a run); `instance` names this daemon among those
  // sharing it. A run this instance was coordinating when it stopped is
  // reported failed when it starts again. Errors: the store's.
  static Result<std::unique_ptr<Coordinator>> Create(const FederationConfig& config, std::uint16_t self_port,
                                                     std::unique_ptr<DocumentStore> runs, std::string instance,
                                                     Logger* logger);
  // Stops the runs in flight (they fail: "the coordinator stopped").
  ~Coordinator();

  // Errors: kInvalidArgument for a bad request.
  Result<std::uint64_t> Start(const FedCogRunRequest& request);
  // The run's status JSON, this daemon's or another's; nullopt for an
  // unknown run. Errors: the store's.
  Result<std::optional<std::string>> RunStatus(std::uint64_t run) const;
  Result<std::map<std::uint64_t, std::string>> Runs() const;
  // Errors: kFailedPrecondition for an unknown or finished run.
  Status Cancel(std::uint64_t run);

 private:
  struct RunState;
  Coordinator(const FederationConfig& config, std::uint16_t self_port, std::unique_ptr<DocumentStore> runs,
              std::string instance, Logger* logger);
  void Execute(std::shared_ptr<RunState> run);
  void Persist(RunState& run);

  FederationConfig config_;
  std::uint16_t self_port_;
  std::unique_ptr<DocumentStore> stored_;  // every run's status
  std::string instance_;
  Logger* logger_;
  mutable std::mutex mu_;
  std::map<std::uint64_t, std::shared_ptr<RunState>> runs_;  // this daemon's, since it started
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_FEDERATION_COORDINATOR_H_
