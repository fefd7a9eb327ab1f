#include "net/metrics.h"

#include <cstdio>
#include <initializer_list>
#include <utility>

#include "net/storage_failure.h"

namespace ldpgraph {

const char* RejectReasonName(RejectReason reason) {
  switch (reason) {
    case RejectReason::kUnauthenticated: return "unauthenticated";
    case RejectReason::kForbidden: return "forbidden";
    case RejectReason::kTooLarge: return "too_large";
    case RejectReason::kMalformed: return "malformed";
    case RejectReason::kUnknownGraph: return "unknown_graph";
    case RejectReason::kOutOfRange: return "out_of_range";
    case RejectReason::kPolicyMismatch: return "policy_mismatch";
    case RejectReason::kConflict: return "conflict";
    case RejectReason::kRateLimited: return "rate_limited";
    case RejectReason::kWrongRound: return "wrong_round";
    case RejectReason::kUnavailable: return "unavailable";
    case RejectReason::kCount: break;
  }
  return "unknown";
}

void Histogram::Observe(double seconds) {
  std::size_t i = 0;
  while (i < kBounds.size() && seconds > kBounds[i]) ++i;
  counts_[i].fetch_add(1, std::memory_order_relaxed);
  sum_micros_.fetch_add(static_cast<std::uint64_t>(seconds * 1e6), std::memory_order_relaxed);
}

void Histogram::Render(const std::string& name, const std::string& help, std::string* out) const {
  *out += "# HELP " + name + " " + help + "\n# TYPE " + name + " histogram\n";
  std::uint64_t cumulative = 0;
  char line[160];
  for (std::size_t i = 0; i <= kBounds.size(); ++i) {
    cumulative += counts_[i].load(std::memory_order_relaxed);
    if (i < kBounds.size()) {
      std::snprintf(line, sizeof(line), "%s_bucket{le=\"%g\"} %llu\n", name.c_str(), kBounds[i],
                    static_cast<unsigned long long>(cumulative));
    } else {
      std::snprintf(line, sizeof(line), "%s_bucket{le=\"+Inf\"} %llu\n", name.c_str(),
                    static_cast<unsigned long long>(cumulative));
    }
    *out += line;
  }
  std::snprintf(line, sizeof(line), "%s_sum %.6f\n%s_count %llu\n", name.c_str(),
                static_cast<double>(sum_micros_.load()) / 1e6, name.c_str(),
                static_cast<unsigned long long>(cumulative));
  *out += line;
}

namespace {
void Counter(std::string* out, const char* name, const char* help, std::uint64_t value) {
  *out += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " counter\n" + name + " " +
          std::to_string(value) + "\n";
}

// A counter with an "outcome" label, one line per outcome.
void CounterByOutcome(std::string* out, const char* name, const char* help,
                      std::initializer_list<std::pair<const char*, std::uint64_t>> outcomes) {
  *out += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " counter\n";
  for (const auto& [outcome, value] : outcomes) {
    *out += std::string(name) + "{outcome=\"" + outcome + "\"} " + std::to_string(value) + "\n";
  }
}
}  // namespace

std::string Metrics::RenderPrometheus() const {
  std::string out;
  CounterByOutcome(&out, "ldpgraph_reports_accepted_total", "Reports acknowledged, by outcome.",
                   {{"stored", reports_stored.load()}, {"duplicate", reports_duplicate.load()}});
  out += "# HELP ldpgraph_reports_rejected_total Reports refused, by reason.\n"
         "# TYPE ldpgraph_reports_rejected_total counter\n";
  for (int i = 0; i < static_cast<int>(RejectReason::kCount); ++i) {
    out += std::string("ldpgraph_reports_rejected_total{reason=\"") +
           RejectReasonName(static_cast<RejectReason>(i)) + "\"} " + std::to_string(reports_rejected[i].load()) +
           "\n";
  }
  out += "# HELP ldpgraph_open_connections TLS connections open now.\n# TYPE ldpgraph_open_connections gauge\n";
  out += "ldpgraph_open_connections " + std::to_string(open_connections.load()) + "\n";
  Counter(&out, "ldpgraph_connections_total", "TCP connections accepted.", connections_total.load());
  Counter(&out, "ldpgraph_tls_handshake_failures_total", "Connections whose TLS handshake failed.",
          tls_handshake_failures.load());
  Counter(&out, "ldpgraph_connections_refused_total",
          "Connections closed unserved: over max_connections or the per-address cap.", connections_refused.load());
  Counter(&out, "ldpgraph_accept_failures_total", "accept() failures, such as running out of descriptors.",
          accept_failures.load());
  Counter(&out, "ldpgraph_requests_total", "HTTP requests answered.", requests_total.load());
  Counter(&out, "ldpgraph_store_commits_total", "Store transactions committed.", store_commits.load());
  Counter(&out, "ldpgraph_graphs_assembled_total", "Graphs assembled from their reports.", graphs_assembled.load());
  Counter(&out, "ldpgraph_assembled_users_total", "Users in assembled graphs, silent ones included.",
          assembled_users.load());
  Counter(&out, "ldpgraph_assembled_reporters_total", "Users in assembled graphs who had reported.",
          assembled_reporters.load());
  Counter(&out, "ldpgraph_assembled_edges_total", "Adjacency entries of assembled graphs.", assembled_edges.load());
  CounterByOutcome(&out, "ldpgraph_training_jobs_total", "Training jobs that ended, by outcome.",
                   {{"succeeded", jobs_succeeded.load()},
                    {"failed", jobs_failed.load()},
                    {"cancelled", jobs_cancelled.load()}});
  Counter(&out, "ldpgraph_rounds_opened_total", "Collection rounds this daemon opened (closing the one before).",
          rounds_opened.load());
  Counter(&out, "ldpgraph_round_retrains_refused_total",
          "Retraining jobs a round's schedule asked for that could not be queued.", round_retrains_refused.load());
  out += "# HELP ldpgraph_training_leader 1 while this daemon runs the training jobs (the lead on a shared store).\n"
         "# TYPE ldpgraph_training_leader gauge\n";
  out += "ldpgraph_training_leader " + std::to_string(training_leader.load()) + "\n";
  Counter(&out, "ldpgraph_training_lead_changes_total", "Times this daemon took or lost the training lead.",
          training_lead_changes.load());
  Counter(&out, "ldpgraph_store_failures_total",
          "Writes the store refused (a report's commit, a model, a held graph, a job): each answered 503.",
          StorageFailures());
  out += "# HELP ldpgraph_training_jobs_running Training jobs assembling or training now.\n"
         "# TYPE ldpgraph_training_jobs_running gauge\n";
  out += "ldpgraph_training_jobs_running " + std::to_string(jobs_running.load()) + "\n";
  CounterByOutcome(&out, "ldpgraph_admin_queries_total", "Long admin queries (GW), by outcome.",
                   {{"answered", queries_answered.load()}, {"refused", queries_refused.load()}});
  out += "# HELP ldpgraph_admin_queries_waiting Long admin queries waiting for the query worker now.\n"
         "# TYPE ldpgraph_admin_queries_waiting gauge\n";
  out += "ldpgraph_admin_queries_waiting " + std::to_string(queries_waiting.load()) + "\n";
  out += "# HELP ldpgraph_memory_budget_bytes The memory budget of heavy admin work ([limits] memory_budget_mb).\n"
         "# TYPE ldpgraph_memory_budget_bytes gauge\n";
  out += "ldpgraph_memory_budget_bytes " + std::to_string(memory_budget_bytes.load()) + "\n";
  out += "# HELP ldpgraph_memory_leased_bytes What running GAP jobs, GW queries, predictions and uploads hold of it.\n"
         "# TYPE ldpgraph_memory_leased_bytes gauge\n";
  out += "ldpgraph_memory_leased_bytes " + std::to_string(memory_leased_bytes.load()) + "\n";
  request_seconds.Render("ldpgraph_request_seconds", "Time from a request's arrival to its response.", &out);
  commit_seconds.Render("ldpgraph_store_commit_seconds", "Time of one store commit, fsync included.", &out);
  return out;
}

}  // namespace ldpgraph
