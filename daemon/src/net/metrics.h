// Metrics: the daemon's counters, gauges and histograms, rendered in the
// Prometheus text format at GET /metrics. Lock-free on the hot path.
#ifndef LDPGRAPH_DAEMON_NET_METRICS_H_
#define LDPGRAPH_DAEMON_NET_METRICS_H_

#include <array>
#include <atomic>
#include <cstdint>
#include <string>

namespace ldpgraph {

// Why a report was refused; each has its own counter and HTTP status.
enum class RejectReason : int {
  kUnauthenticated = 0,  // 401
  kForbidden,            // 403
  kTooLarge,             // 413
  kMalformed,            // 400
  kUnknownGraph,         // 404
  kOutOfRange,           // 400
  kPolicyMismatch,       // 422
  kConflict,             // 409
  kRateLimited,          // 429
  kUnavailable,          // 503
  kWrongRound,           // 409: not the graph's open round
  kCount
};
const char* RejectReasonName(RejectReason reason);

// A histogram with fixed upper bounds in seconds.
class Histogram {
 public:
  static constexpr std::array<double, 12> kBounds = {0.0005, 0.001, 0.002, 0.005, 0.01, 0.02,
                                                     0.05,   0.1,   0.2,   0.5,   1,    5};
  void Observe(double seconds);
  void Render(const std::string& name, const std::string& help, std::string* out) const;
  double SumSeconds() const { return static_cast<double>(sum_micros_.load(std::memory_order_relaxed)) / 1e6; }

 private:
  std::array<std::atomic<std::uint64_t>, kBounds.size() + 1> counts_{};
  std::atomic<std::uint64_t> sum_micros_{0};
};

struct Metrics {
  std::atomic<std::uint64_t> reports_stored{0};
  std::atomic<std::uint64_t> reports_duplicate{0};
  std::array<std::atomic<std::uint64_t>, static_cast<int>(RejectReason::kCount)> reports_rejected{};
  std::atomic<std::int64_t> open_connections{0};
  std::atomic<std::uint64_t> connections_total{0};
  std::atomic<std::uint64_t> tls_handshake_failures{0};
  std::atomic<std::uint64_t> connections_refused{0};  // over max_connections or the per-address cap
  std::atomic<std::uint64_t> accept_failures{0};      // accept() errors, e.g. out of descriptors
  std::atomic<std::uint64_t> requests_total{0};
  std::atomic<std::uint64_t> store_commits{0};
  Histogram request_seconds;
  Histogram commit_seconds;
  // Graph assembly (training jobs and predictions): totals over every assembly.
  std::atomic<std::uint64_t> graphs_assembled{0};
  std::atomic<std::uint64_t> assembled_users{0};      // nodes, silent users included
  std::atomic<std::uint64_t> assembled_reporters{0};  // nodes with a stored report
  std::atomic<std::uint64_t> assembled_edges{0};      // row entries after symmetrising
  // Training jobs by how they ended, and how many run now.
  std::atomic<std::uint64_t> jobs_succeeded{0};
  std::atomic<std::uint64_t> jobs_failed{0};
  std::atomic<std::uint64_t> jobs_cancelled{0};
  std::atomic<std::int64_t> jobs_running{0};
  // The training lead (jobs/shared_queue.cc): 1 while this daemon runs the
  // jobs (always, on a store it owns alone), and how often it took or lost
  // the lead on a shared store.
  std::atomic<std::int64_t> training_leader{0};
  std::atomic<std::uint64_t> training_lead_changes{0};
  // Rounds (docs/rounds.md): rounds this daemon opened, and the schedule's
  // retraining jobs it could not queue.
  std::atomic<std::uint64_t> rounds_opened{0};
  std::atomic<std::uint64_t> round_retrains_refused{0};
  // Long admin queries (GW) on the query worker: answered, refused (queue
  // full or stopping), and waiting now.
  std::atomic<std::uint64_t> queries_answered{0};
  std::atomic<std::uint64_t> queries_refused{0};
  std::atomic<std::int64_t> queries_waiting{0};
  // The memory budget (memory_budget.h): its size, and what leases hold now.
  std::atomic<std::uint64_t> memory_budget_bytes{0};
  std::atomic<std::uint64_t> memory_leased_bytes{0};

  void Reject(RejectReason reason) { reports_rejected[static_cast<int>(reason)].fetch_add(1); }
  std::string RenderPrometheus() const;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_NET_METRICS_H_
