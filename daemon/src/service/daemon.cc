#include "service/daemon.h"

#include <csignal>
#include <ctime>
#include <pthread.h>
#include <systemd/sd-daemon.h>

#include "service/https_server.h"
#include "service/logger.h"
#include "service/service_context.h"
#include "store/sqlite_report_store.h"

namespace ldpgraph {
namespace {

HttpsServerOptions ServerOptions(const DaemonConfig& c) {
  HttpsServerOptions o;
  o.address = c.listen_address;
  o.port = c.listen_port;
  o.threads = c.threads;
  o.max_body_bytes = c.max_body_bytes;
  o.request_timeout = std::chrono::milliseconds(c.request_timeout_ms);
  o.idle_timeout = std::chrono::milliseconds(c.idle_timeout_ms);
  o.max_connections = c.max_connections;
  o.certificate_file = c.certificate_file;
  o.private_key_file = c.private_key_file;
  o.client_ca_file = c.client_ca_file;
  return o;
}

}  // namespace

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

  Metrics metrics;
  SqliteStoreOptions store_options;
  store_options.path = config.store_path;
  store_options.max_reports_per_commit = config.max_reports_per_commit;
  store_options.on_commit = [&metrics](std::size_t, double seconds) {
    metrics.store_commits.fetch_add(1);
    metrics.commit_seconds.Observe(seconds);
  };
  auto store = OpenSqliteReportStore(store_options);
  if (!store.ok()) {
    logger.Error("store_open_failed", {{"path", config.store_path}, {"error", store.status().message()}});
    return 1;
  }
  auto tokens = TokenAuthority::Create(config.secret);
  if (!tokens.ok()) {
    logger.Error("bad_secret", {{"error", tokens.status().message()}});
    return 1;
  }
  ServiceContext ctx(store->get(), std::move(*tokens), config.admin_token, config.per_token, config.per_address,
                     &metrics, &logger);
  Status loaded = ctx.graphs.Load();
  if (!loaded.ok()) {
    logger.Error("graphs_load_failed", {{"error", loaded.message()}});
    return 1;
  }
  auto server = HttpsServer::Start(ServerOptions(config), &ctx);
  if (!server.ok()) {
    logger.Error("listen_failed", {{"error", server.status().message()}});
    (*store)->Close();
    return 1;
  }
  logger.Info("listening", {{"address", config.listen_address},
                            {"port", std::to_string((*server)->port())},
                            {"store", config.store_path},
                            {"graphs", std::to_string(ctx.graphs.All().size())},
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
      Status reloaded = (*server)->ReloadCertificates();
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
  (*server)->Drain(std::chrono::milliseconds(config.drain_timeout_ms));
  (*store)->Close();
  logger.Info("stopped", {{"reports_stored", std::to_string(metrics.reports_stored.load())},
                          {"requests", std::to_string(metrics.requests_total.load())}});
  server->reset();
  return 0;
}

}  // namespace ldpgraph
