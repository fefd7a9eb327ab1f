// Daemon: ldpgraphd's parts wired together (store, graph registry, token
// authority, HTTPS server). RunDaemon() is the service's life around it:
// READY=1 and WATCHDOG=1 for systemd, SIGHUP reloads the certificates,
// SIGTERM or SIGINT says STOPPING=1, stops accepting, drains the requests in
// flight, commits, and returns 0. `ldpgraph bench ingest` runs a Daemon
// in-process.
#ifndef LDPGRAPH_DAEMON_SERVICE_DAEMON_H_
#define LDPGRAPH_DAEMON_SERVICE_DAEMON_H_

#include <memory>

#include "api/service_context.h"
#include "api/round_clock.h"
#include "federation/coordinator.h"
#include "federation/party_service.h"
#include "jobs/memory_budget.h"
#include "net/https_server.h"
#include "service/daemon_config.h"

namespace ldpgraph {

class Daemon {
 public:
  // Opens the store, loads the graphs and starts serving. Errors: those of
  // the store, the token secret, the stored graphs and the server.
  static Result<std::unique_ptr<Daemon>> Start(const DaemonConfig& config, Logger* logger);
  ~Daemon();

  std::uint16_t port() const { return server_->port(); }
  // The federation listener's port; 0 without [federation].
  std::uint16_t federation_port() const { return federation_server_ ? federation_server_->port() : 0; }
  ServiceContext& context() { return *ctx_; }
  Metrics& metrics() { return metrics_; }
  Status ReloadCertificates() { return server_->ReloadCertificates(); }
  // Drains for at most drain_timeout_ms, commits what is queued, stops.
  void Stop();

 private:
  Daemon() = default;
  DaemonConfig config_;
  Metrics metrics_;
  std::unique_ptr<Store> store_;
  std::unique_ptr<MemoryBudget> memory_;  // before the jobs: they hold leases of it
  std::unique_ptr<ModelRegistry> models_;
  std::unique_ptr<HeldGraphStore> held_graphs_;
  std::unique_ptr<TrainingJobs> jobs_;
  std::unique_ptr<ServiceContext> ctx_;
  std::unique_ptr<QueryWorker> queries_;
  std::unique_ptr<ResultCache> results_;  // after the budget: it holds leases of it
  std::unique_ptr<RoundClock> round_clock_;  // closes timed rounds, queuing their retraining
  std::unique_ptr<HttpsServer> server_;
  std::unique_ptr<PartyService> federation_party_;
  std::unique_ptr<HttpsServer> federation_server_;
  std::unique_ptr<Coordinator> coordinator_;
  bool stopped_ = false;
};

// The process exit code: 0 after a clean stop, 1 when it could not start.
int RunDaemon(const DaemonConfig& config);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_SERVICE_DAEMON_H_
