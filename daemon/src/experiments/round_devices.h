// RoundDevices: every user's device reporting one graph in rounds, run
// in-process with the SDK's BudgetLedger (the code the phones run): each
// round's memoised reports, as the daemon decodes them from their wire
// bytes, and each user's privacy loss as her ledger counts it, beside the
// naive scheme (fresh noise every round) on the same friend lists.
// Thread-safety: none (one set of devices per experiment run).
#ifndef LDPGRAPH_DAEMON_EXPERIMENTS_ROUND_DEVICES_H_
#define LDPGRAPH_DAEMON_EXPERIMENTS_ROUND_DEVICES_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "graph/csr_graph.h"
#include "ldpgraph/budget_ledger.h"
#include "ldpgraph/random_source.h"
#include "linkldp/link_reports.h"

namespace ldpgraph {

struct DeviceRound {
  LinkReports memoised;  // what the server holds after the round's memoised reports
  LinkReports fresh;     // the same lists with fresh noise (when asked for)
  // Each user's loss after this round, in epsilon: her ledger's, and what
  // fresh noise every round would have spent (the same for every user).
  std::vector<double> loss;
  double naive_loss = 0;
  // Users whose memoised report (its ids and noisy degree) differs from
  // the last round's: what a change shows the server.
  std::uint64_t reports_changed = 0;
};

class RoundDevices {
 public:
  // `policy` is the graph's edge policy (a mechanism the link denoiser
  // reads: RR, DPRR, RR with degree); the seed draws the devices' keys, the
  // report ids and the naive scheme's noise (reproducible, for experiments
  // only). Errors: the policy's, kInvalidArgument for LocalLap or none.
  static Result<std::unique_ptr<RoundDevices>> Create(const EdgePolicy& policy, std::uint32_t num_users,
                                                      std::uint64_t seed);

  // Every user reports her row of `graph` (symmetric, num_users users) in
  // round `round`, above the last; `fresh` also draws the naive scheme's
  // reports. Errors: the ledgers' (e.g. a round not above the last).
  Result<DeviceRound> Report(std::uint32_t round, const CsrGraph& graph, bool fresh);

 private:
  RoundDevices() = default;

  std::unique_ptr<ReportBuilder> builder_;
  std::vector<std::unique_ptr<BudgetLedger>> ledgers_;
  // Each user's last memoised report, to count the reports that changed.
  std::vector<std::vector<std::uint32_t>> last_ids_;
  std::vector<std::int64_t> last_degree_;
  std::unique_ptr<RandomSource> device_rng_;  // keys and report ids
  std::unique_ptr<RandomSource> fresh_rng_;   // the naive scheme's noise
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_EXPERIMENTS_ROUND_DEVICES_H_
