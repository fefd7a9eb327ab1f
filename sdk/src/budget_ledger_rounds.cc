// The ledger's rounds (docs/rounds.md), apart from its one-shot reports so
// that a device image which never reports in rounds links none of it.
#include <string>

#include "internal/validation.h"
#include "ldpgraph/budget_ledger.h"
#include "ldpgraph/graph_config_codec.h"
#include "ldpgraph/wire_format.h"

namespace ldpgraph {

Result<std::vector<std::uint8_t>> BudgetLedger::ReportRound(const ReportBuilder& builder, const UserData& data,
                                                            std::uint64_t round, RandomSource& rng) {
  const GraphConfig& config = builder.config();
  const std::uint64_t graph_id = config.graph_id;
  if (round == 0 || round > 0xFFFFFFFFu) {
    return Status::InvalidArgument("round " + std::to_string(round) +
                                   " is outside [1, 2^32 - 1]: rounds are numbered from 1 (round 0 is ReportOnce's)");
  }
  std::vector<std::uint8_t> config_bytes;
  LDPGRAPH_RETURN_IF_ERROR(EncodeGraphConfig(config, &config_bytes));
  std::lock_guard<Mutex> lock(mu_);
  LedgerEntry entry;
  auto it = entries_.find(graph_id);
  if (it != entries_.end()) {
    entry = it->second;
    if (!entry.in_rounds) {
      return Status::FailedPrecondition("graph " + std::to_string(graph_id) +
                                        " was reported once, without rounds: its memoised rounds would spend anew");
    }
    if (round == entry.history.last_round) return entry.bytes;  // a retry of this round
    if (entry.config != config_bytes) {
      return Status::FailedPrecondition(
          "graph " + std::to_string(graph_id) + "'s policy differs from the one of its earlier rounds: permanent "
          "coins belong to one policy (collect the new policy as a new graph)");
    }
  } else {
    entry.in_rounds = true;
    entry.config = config_bytes;
    rng.FillBytes(entry.key.data(), entry.key.size());
  }
  const PermanentCoins coins(entry.key);
  Result<RoundHistory> after = AfterRound(builder, coins, entry.history, data, round);
  if (!after.ok()) return after.status();
  const double loss = LossOf(config, *after).total();
  const double spent_after = spent_ - entry.epsilon + loss;
  if (spent_after > cap_) {
    return Status::ResourceExhausted("privacy budget cap " + internal::FormatDouble(cap_) +
                                     " would be exceeded: spent " + internal::FormatDouble(spent_) +
                                     ", round " + std::to_string(round) + " of graph " + std::to_string(graph_id) +
                                     " would bring it to " + internal::FormatDouble(spent_after));
  }
  Result<Report> report = builder.BuildMemoised(data, coins, rng);
  if (!report.ok()) return report.status();
  report->round = static_cast<std::uint32_t>(round);
  std::vector<std::uint8_t> bytes;
  LDPGRAPH_RETURN_IF_ERROR(EncodeReport(*report, &bytes));
  entry.bytes = bytes;
  entry.history = std::move(after).value();
  entry.epsilon = loss;
  entry.naive_epsilon += ReportEpsilon(*report);
  std::map<std::uint64_t, LedgerEntry> next = entries_;
  next[graph_id] = std::move(entry);
  LDPGRAPH_RETURN_IF_ERROR(storage_.store(Serialize(next)));
  entries_ = std::move(next);
  spent_ = spent_after;
  return bytes;
}

Result<GraphLoss> BudgetLedger::Loss(std::uint64_t graph_id) const {
  std::lock_guard<Mutex> lock(mu_);
  auto it = entries_.find(graph_id);
  if (it == entries_.end()) {
    return Status::FailedPrecondition("no report stored for graph " + std::to_string(graph_id));
  }
  const LedgerEntry& e = it->second;
  GraphLoss loss;
  loss.epsilon = e.epsilon;
  if (!e.in_rounds) {
    loss.naive_epsilon = e.epsilon;
    loss.rounds = 1;
    return loss;
  }
  loss.naive_epsilon = e.naive_epsilon;
  loss.rounds = e.history.rounds;
  loss.last_round = e.history.last_round;
  Result<GraphConfig> config = DecodeGraphConfig(e.config.data(), e.config.size());
  if (config.ok()) loss.parts = LossOf(*config, e.history);
  return loss;
}

}  // namespace ldpgraph
