#include "service/daemon.h"

#include <algorithm>
#include <csignal>
#include <ctime>
#include <pthread.h>
#include <unistd.h>
#include <systemd/sd-daemon.h>

#include "api/api.h"
#include "api/held_graph_api.h"
#include "requests/job_request_codec.h"
#include "api/routes.h"
#include "console/console.h"
#include "net/logger.h"
#include "store/file_documents.h"
#include "store/postgres_documents.h"
#include "store/postgres_report_store.h"
#include "store/sqlite_report_store.h"

namespace ldpgraph {
namespace {

// The listener for devices and the admin: the Api answers.
HttpsServerOptions ServerOptions(const DaemonConfig& c, ServiceContext* ctx) {
  HttpsServerOptions o;
  o.address = c.listen_address;
  o.port = c.listen_port;
  o.threads = c.threads;
  o.max_body_bytes = c.max_body_bytes;
  o.max_upload_bytes = c.max_upload_bytes;
  o.request_timeout = std::chrono::milliseconds(c.request_timeout_ms);
  o.idle_timeout = std::chrono::milliseconds(c.idle_timeout_ms);
  o.max_connections = c.max_connections;
  o.max_connections_per_address = c.max_connections_per_address;
  o.max_pipelined_requests = c.max_pipelined_requests;
  o.tls12_ciphers = c.tls12_ciphers;
  o.refusal_log_lines_per_second = c.refusal_log_lines_per_second;
  o.certificate_file = c.certificate_file;
  o.private_key_file = c.private_key_file;
  o.client_ca_file = c.client_ca_file;
  o.upload_path_prefix = kHeldGraphUploadPrefix;
  o.coalesced_post_path = kReportsPath;
  o.upload_bearer = c.admin_token;
  o.handler = [ctx](HttpRequest request, Respond respond) {
    // The console's pages beside the API, on the same listener and admin token.
    const std::string path = request.target.substr(0, request.target.find('?'));
    if (IsConsolePath(path)) return respond(HandleConsole(*ctx, request));
    HandleRequest(*ctx, std::move(request), std::move(respond));
  };
  if (ctx != nullptr && ctx->memory != nullptr) {
    o.admit_upload = [ctx](std::uint64_t content_length) { return AdmitUpload(*ctx, content_length); };
  }
  return o;
}

// The listener the parties of a federation talk on: mutual TLS with the
// federation's CA, bodies as large as a step's partial sums.
HttpsServerOptions FederationOptions(const DaemonConfig& c, PartyService* party) {
  HttpsServerOptions o = ServerOptions(c, nullptr);
  const FederationConfig& f = c.federation;
  o.address = f.listen_address;
  o.port = f.listen_port;
  o.threads = 2;
  o.max_body_bytes = f.max_message_bytes;
  o.max_upload_bytes = f.max_message_bytes;
  o.request_timeout = std::chrono::milliseconds(std::max<std::uint32_t>(c.request_timeout_ms, 60000));
  o.max_connections = 256;
  o.max_connections_per_address = 0;
  o.certificate_file = f.certificate_file;
  o.private_key_file = f.private_key_file;
  o.client_ca_file = f.ca_file;
  o.upload_path_prefix.clear();  // every body is bounded by max_message_bytes
  o.coalesced_post_path.clear();
  o.upload_bearer.clear();
  o.handler = [party](HttpRequest request, Respond respond) { party->Handle(request, std::move(respond)); };
  return o;
}

std::string StoreDir(const DaemonConfig& c) {
  return c.state_dir.empty() ? StoreDirectory(c.store_path) : c.state_dir;
}

// This daemon among those sharing a store: its host and its own folder.
std::string InstanceName(const DaemonConfig& c) {
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  return std::string(host) + ":" + StoreDir(c);
}

// Model versions or held graphs: files in `dir` beside a SQLite store, rows
// of the shared PostgreSQL store (as `kind`).
Result<std::unique_ptr<DocumentStore>> OpenDocuments(const DaemonConfig& c, const std::string& dir,
                                                     const std::string& extension, const std::string& kind,
                                                     const std::string& what) {
  if (c.store_backend == "postgresql") return OpenPostgresDocuments(c.store_connection, c.store_password, kind, what);
  return OpenFileDocuments(dir, extension, what);
}

// The configured backend: SQLite (embedded) or PostgreSQL (shared).
Result<std::unique_ptr<Store>> OpenStore(const DaemonConfig& c, CommitObserver on_commit) {
  if (c.store_backend == "postgresql") {
    PostgresStoreOptions o;
    o.conninfo = c.store_connection;
    o.password = c.store_password;
    o.pool_size = c.store_pool_size;
    o.max_reports_per_commit = c.max_reports_per_commit;
    o.on_commit = std::move(on_commit);
    return OpenPostgresReportStore(o);
  }
  SqliteStoreOptions o;
  o.path = c.store_path;
  o.max_reports_per_commit = c.max_reports_per_commit;
  o.on_commit = std::move(on_commit);
  return OpenSqliteReportStore(o);
}

}  // namespace

Result<std::unique_ptr<Daemon>> Daemon::Start(const DaemonConfig& config, Logger* logger) {
  std::unique_ptr<Daemon> d(new Daemon());
  d->config_ = config;
  Metrics* metrics = &d->metrics_;
  auto store = OpenStore(config, [metrics](std::size_t, double seconds) {
    metrics->store_commits.fetch_add(1);
    metrics->commit_seconds.Observe(seconds);
  });
  if (!store.ok()) return store.status();
  d->store_ = std::move(*store);
  auto tokens = TokenAuthority::Create(config.secret);
  if (!tokens.ok()) return tokens.status();
  d->ctx_ = std::make_unique<ServiceContext>(d->store_.get(), std::move(*tokens), config.admin_token,
                                             config.per_token, config.per_address, metrics, logger);
  LDPGRAPH_RETURN_IF_ERROR(d->ctx_->graphs.Load());
  // A config built in code (the benchmarks) may leave the folders unnamed.
  const std::string models_dir = config.models_dir.empty() ? StoreDir(config) + "/models" : config.models_dir;
  auto models = OpenDocuments(config, models_dir, ".model", "model", "model version");
  if (!models.ok()) return models.status();
  d->models_ = std::make_unique<ModelRegistry>(std::move(*models));
  d->memory_ = std::make_unique<MemoryBudget>(config.memory_budget_bytes > 0 ? config.memory_budget_bytes
                                                                             : DefaultMemoryBudget(),
                                                 metrics);
  d->ctx_->memory = d->memory_.get();
  d->ctx_->gw_max_nodes = config.gw_max_nodes;
  d->ctx_->models = d->models_.get();
  auto held = OpenDocuments(config, config.held_graphs_dir.empty() ? StoreDir(config) + "/held-graphs"
                                                                   : config.held_graphs_dir,
                            ".graph", "held_graph", "held graph");
  if (!held.ok()) return held.status();
  d->held_graphs_ = std::make_unique<HeldGraphStore>(std::move(*held));
  d->ctx_->held_graphs = d->held_graphs_.get();
  // On a shared store a job may be queued here and run by another daemon:
  // its request travels as JSON, its held graph through the store.
  d->jobs_ = std::make_unique<TrainingJobs>(d->store_.get(), d->models_.get(), metrics, logger, d->memory_.get(),
                                            d->held_graphs_.get());
  d->ctx_->jobs = d->jobs_.get();
  d->queries_ = std::make_unique<QueryWorker>(16, metrics);
  d->ctx_->queries = d->queries_.get();
  // Results are a few bytes a user: an eighth of the budget keeps those of
  // every graph a model covers, up to millions of users.
  d->results_ = std::make_unique<ResultCache>(d->memory_->bytes() / 8, d->memory_.get());
  d->ctx_->results = d->results_.get();
  d->round_clock_ = std::make_unique<RoundClock>(d->ctx_.get());
  const ServerShared shared{d->ctx_->metrics, d->ctx_->logger, d->ctx_->draining};
  auto server = HttpsServer::Start(ServerOptions(config, d->ctx_.get()), shared);
  if (!server.ok()) return server.status();
  d->server_ = std::move(*server);
  if (config.federation.enabled()) {
    auto party = PartyService::Create(config.federation, d->held_graphs_.get(), models_dir + "/federated", logger);
    if (!party.ok()) return party.status();
    d->federation_party_ = std::move(*party);
    auto listener = HttpsServer::Start(FederationOptions(config, d->federation_party_.get()), shared);
    if (!listener.ok()) return Status(listener.status().code(), "federation listener: " + listener.status().message());
    d->federation_server_ = std::move(*listener);
    // Run statuses: files beside SQLite, rows of a shared store (any daemon answers for a run).
    auto runs = OpenDocuments(config, StoreDir(config) + "/federation-runs", ".run", "federation_run",
                              "federation run");
    if (!runs.ok()) return runs.status();
    auto coordinator = Coordinator::Create(config.federation, d->federation_server_->port(), std::move(*runs),
                                           InstanceName(config), logger);
    if (!coordinator.ok()) return coordinator.status();
    d->coordinator_ = std::move(*coordinator);
    d->ctx_->federation_party = d->federation_party_.get();
    d->ctx_->coordinator = d->coordinator_.get();
  }
  return d;
}

void Daemon::Stop() {
  if (stopped_) return;
  stopped_ = true;
  // Runs in flight end first (failed: "the coordinator stopped"), while the
  // listeners they talk to are still up.
  coordinator_.reset();
  server_->Drain(std::chrono::milliseconds(config_.drain_timeout_ms));
  if (federation_server_) federation_server_->Drain(std::chrono::milliseconds(config_.drain_timeout_ms));
  // A GW query still running sees the drain and ends; its answer is posted
  // to a server that still exists.
  ctx_->queries = nullptr;
  queries_.reset();
  round_clock_.reset();  // before the jobs: it queues retraining
  jobs_.reset();  // cancels a running training between two epochs
  store_->Close();
}

Daemon::~Daemon() {
  if (server_ && store_) Stop();
  server_.reset();  // sessions may hold the context: the servers go first
  federation_server_.reset();
}

int RunDaemon(const DaemonConfig& config) {
  Logger logger(config.log_format, config.log_level);
  // Signals are taken synchronously by this thread only: block them before
  // any other thread exists, so every thread inherits the mask.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  std::signal(SIGPIPE, SIG_IGN);

  auto daemon = Daemon::Start(config, &logger);
  if (!daemon.ok()) {
    logger.Error("start_failed", {{"error", daemon.status().message()}});
    return 1;
  }
  Daemon& d = **daemon;
  logger.Info("listening", {{"address", config.listen_address},
                            {"port", std::to_string(d.port())},
                            {"store", config.store_path},
                            {"graphs", std::to_string(d.context().graphs.All().size())},
                            {"federation_port", std::to_string(d.federation_port())},
                            {"threads", std::to_string(config.threads)}});
  sd_notify(0, "READY=1");

  std::uint64_t watchdog_usec = 0;
  const bool watchdog = sd_watchdog_enabled(0, &watchdog_usec) > 0;
  const std::uint64_t wait_usec = watchdog ? watchdog_usec / 2 : 3600ull * 1000000;
  for (;;) {
    timespec timeout{static_cast<time_t>(wait_usec / 1000000), static_cast<long>(wait_usec % 1000000) * 1000};
    const int sig = sigtimedwait(&signals, nullptr, &timeout);
    if (sig < 0) {
      if (watchdog) sd_notify(0, "WATCHDOG=1");
      continue;
    }
    if (sig == SIGHUP) {
      sd_notify(0, "RELOADING=1");
      Status reloaded = d.ReloadCertificates();
      if (reloaded.ok()) {
        logger.Info("certificates_reloaded", {{"certificate", config.certificate_file}});
      } else {
        logger.Error("certificate_reload_failed", {{"error", reloaded.message()}});
      }
      sd_notify(0, "READY=1");
      continue;
    }
    logger.Info("stopping", {{"signal", sig == SIGTERM ? "SIGTERM" : "SIGINT"}});
    break;
  }
  sd_notify(0, "STOPPING=1");
  d.Stop();
  logger.Info("stopped", {{"reports_stored", std::to_string(d.metrics().reports_stored.load())},
                          {"requests", std::to_string(d.metrics().requests_total.load())}});
  return 0;
}

}  // namespace ldpgraph
