#include "experiments/round_devices.h"

#include <limits>
#include <string>

#include "ldpgraph/wire_format.h"

namespace ldpgraph {
namespace {

constexpr std::uint64_t kGraphId = 1;

// The simulated devices keep their ledgers in memory only: a store that
// keeps nothing (a phone's would write its secure storage).
LedgerStorage MemoryOnly() {
  LedgerStorage s;
  s.load = [](std::vector<std::uint8_t>* out) {
    out->clear();
    return Status::Ok();
  };
  s.store = [](const std::vector<std::uint8_t>&) { return Status::Ok(); };
  return s;
}

}  // namespace

Result<std::unique_ptr<RoundDevices>> RoundDevices::Create(const EdgePolicy& policy, std::uint32_t num_users,
                                                           std::uint64_t seed) {
  if (policy.mechanism == EdgeMechanism::kLocalLap || policy.mechanism == EdgeMechanism::kNone) {
    return Status::InvalidArgument(std::string("rounds of ") + EdgeMechanismName(policy.mechanism) +
                                   " reports are not simulated: their rows are not randomized response");
  }
  GraphConfig config;
  config.graph_id = kGraphId;
  config.num_users = num_users;
  config.edges = policy;
  Result<std::unique_ptr<ReportBuilder>> builder = ReportBuilder::Create(config);
  if (!builder.ok()) return builder.status();
  std::unique_ptr<RoundDevices> d(new RoundDevices());
  d->builder_ = std::move(builder).value();
  d->ledgers_.reserve(num_users);
  for (std::uint32_t u = 0; u < num_users; ++u) {
    Result<std::unique_ptr<BudgetLedger>> ledger =
        BudgetLedger::Open(MemoryOnly(), std::numeric_limits<double>::infinity());
    if (!ledger.ok()) return ledger.status();
    d->ledgers_.push_back(std::move(ledger).value());
  }
  d->last_ids_.resize(num_users);
  d->last_degree_.assign(num_users, 0);
  d->device_rng_ = std::make_unique<SeededRandomSource>(seed);
  d->fresh_rng_ = std::make_unique<SeededRandomSource>(seed ^ 0x9e3779b97f4a7c15ull);
  return d;
}

Result<DeviceRound> RoundDevices::Report(std::uint32_t round, const CsrGraph& graph, bool fresh) {
  const auto n = static_cast<std::uint32_t>(ledgers_.size());
  if (graph.num_nodes() != n) {
    return Status::InvalidArgument("the graph has " + std::to_string(graph.num_nodes()) + " users, the devices " +
                                   std::to_string(n));
  }
  DeviceRound out;
  out.loss.resize(n);
  LinkReportsBuilder memoised(n), naive(n);
  for (std::uint32_t u = 0; u < n; ++u) {
    UserData data;
    data.user_id = u;
    data.neighbours = graph.neighbours(u);
    Result<std::vector<std::uint8_t>> bytes = ledgers_[u]->ReportRound(*builder_, data, round, *device_rng_);
    if (!bytes.ok()) return bytes.status();
    // What the daemon reads: the report decoded from its wire bytes.
    Result<ldpgraph::Report> report = DecodeReport(bytes->data(), bytes->size());
    if (!report.ok()) return report.status();
    if (report->round != round || report->user_id != u) {
      return Status::Internal("user " + std::to_string(u) + "'s ledger sent a report of another round or user");
    }
    const NoisyEdges& edges = report->edges;
    if (round > 1 && (edges.neighbours != last_ids_[u] || edges.noisy_degree != last_degree_[u])) {
      ++out.reports_changed;
    }
    last_ids_[u] = edges.neighbours;
    last_degree_[u] = edges.noisy_degree;
    LDPGRAPH_RETURN_IF_ERROR(memoised.Add(u, edges));
    Result<GraphLoss> loss = ledgers_[u]->Loss(kGraphId);
    if (!loss.ok()) return loss.status();
    out.loss[u] = loss->epsilon;
    out.naive_loss = loss->naive_epsilon;
    if (fresh) {
      Result<ldpgraph::Report> once = builder_->Build(data, *fresh_rng_);
      if (!once.ok()) return once.status();
      LDPGRAPH_RETURN_IF_ERROR(naive.Add(u, once->edges));
    }
  }
  out.memoised = memoised.Finish();
  if (fresh) out.fresh = naive.Finish();
  return out;
}

}  // namespace ldpgraph
