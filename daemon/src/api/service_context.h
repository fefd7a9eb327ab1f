// ServiceContext: what every API handler shares. Owned by the Daemon (or a
// test); handlers hold a reference.
#ifndef LDPGRAPH_DAEMON_API_SERVICE_CONTEXT_H_
#define LDPGRAPH_DAEMON_API_SERVICE_CONTEXT_H_

#include <atomic>
#include <string>

#include "api/graph_registry.h"
#include "api/report_rate.h"
#include "api/result_cache.h"
#include "jobs/memory_budget.h"
#include "jobs/query_worker.h"
#include "jobs/training_jobs.h"
#include "net/logger.h"
#include "net/metrics.h"
#include "net/rate_limiter.h"
#include "net/token_authority.h"
#include "store/held_graph_store.h"
#include "store/model_registry.h"
#include "store/store.h"

namespace ldpgraph {

class Coordinator;
class PartyService;

struct ServiceContext {
  ServiceContext(Store* store_in, TokenAuthority tokens_in, std::string admin_token_in, RateLimit per_token,
                 RateLimit per_address, Metrics* metrics_in, Logger* logger_in)
      : store(store_in),
        graphs(store_in),
        tokens(std::move(tokens_in)),
        admin_token(std::move(admin_token_in)),
        per_token_limit(per_token),
        per_address_limit(per_address),
        metrics(*metrics_in),
        logger(logger_in) {}

  Store* store;
  GraphRegistry graphs;
  TokenAuthority tokens;
  std::string admin_token;
  RateLimiter per_token_limit;
  RateLimiter per_address_limit;
  Metrics& metrics;  // outlives the context: the store reports commits into it
  Logger* logger;
  std::atomic<bool> draining{false};  // SIGTERM: /healthz says 503, connections close after their answer
  ReportRate report_rate;  // each graph's reports stored in the last hour (the console)
  ModelRegistry* models = nullptr;  // trained model versions (set by the Daemon)
  TrainingJobs* jobs = nullptr;     // background training (set by the Daemon)
  HeldGraphStore* held_graphs = nullptr;  // graphs owners upload whole (set by the Daemon)
  // Long admin queries (GW) run on it, off the I/O threads (set by the
  // Daemon); without one (tests, the fuzzer) they are answered in place.
  QueryWorker* queries = nullptr;
  // What heavy admin work may hold at once (set by the Daemon); without one
  // (tests, the fuzzer) nothing is checked or leased.
  MemoryBudget* memory = nullptr;
  // Devices' results, once computed per model version (set by the Daemon);
  // without one (tests) each request computes its own.
  ResultCache* results = nullptr;
  std::uint32_t gw_max_nodes = 5000;  // [limits] gw_max_nodes
  // FedCog (set by the Daemon when its config has [federation]).
  PartyService* federation_party = nullptr;
  Coordinator* coordinator = nullptr;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_API_SERVICE_CONTEXT_H_
