// BudgetLedger: the device's memory of what it already sent.
//
// Randomizing the same true data twice and sending both outputs spends the
// budget twice (an observer can average the noise away). So for each graph
// the ledger stores the exact report bytes that were produced; asking again
// returns the same bytes and spends nothing. It also sums the epsilon spent
// over all graphs and refuses a new report that would exceed an optional cap.
//
// A graph collected in rounds (ReportRound) keeps, instead of one report,
// its secret key for the permanent coins, its RoundHistory and the latest
// round's bytes: each round's report is memoised (docs/rounds.md), and its
// loss is that of the distinct values revealed, however many rounds.
//
// Persistence is pluggable: the app passes load/store callbacks (its own
// secure storage), or uses FileLedgerStorage. The new state is stored BEFORE
// the bytes are returned, so a crash between the two can never lead to a
// second, different randomization. A corrupt stored state is an error
// (kDataLoss), never silently reset: resetting would forget spent budget.
// Thread-safety: all methods are safe to call concurrently.
#ifndef LDPGRAPH_BUDGET_LEDGER_H_
#define LDPGRAPH_BUDGET_LEDGER_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>  // std::lock_guard everywhere; std::mutex where the target has threads
#include <string>
#include <vector>

#include "ldpgraph/permanent_coins.h"
#include "ldpgraph/report_builder.h"
#include "ldpgraph/round_history.h"
#include "ldpgraph/status.h"

namespace ldpgraph {

struct LedgerStorage {
  // Reads the whole stored state into `out`; an empty `out` means "nothing
  // stored yet". A non-OK status aborts Open().
  std::function<Status(std::vector<std::uint8_t>* out)> load;
  // Replaces the stored state atomically and durably.
  std::function<Status(const std::vector<std::uint8_t>& state)> store;
};

// Stores the ledger in one file, replaced atomically (write to a temporary
// file, fsync, rename, fsync the directory). A missing file is an empty ledger.
LedgerStorage FileLedgerStorage(const std::string& path);

struct LedgerEntry {
  double epsilon = 0;               // what this graph's reports spent so far
  std::vector<std::uint8_t> bytes;  // the encoded report, exactly as first produced (the latest round's)
  // A graph reported in rounds: its coins' key, the policy they belong to
  // (the encoded GraphConfig), what its rounds revealed, and what fresh noise
  // every round would have spent instead (the naive scheme).
  bool in_rounds = false;
  CoinKey key{};
  std::vector<std::uint8_t> config;
  RoundHistory history;
  double naive_epsilon = 0;
};

// A graph's privacy loss, for an app to show its user.
struct GraphLoss {
  double epsilon = 0;        // spent: the memoised loss for a graph in rounds
  double naive_epsilon = 0;  // what fresh noise every round would have spent
  std::uint64_t rounds = 0;  // rounds reported (1 for a one-shot report)
  std::uint64_t last_round = 0;
  RoundLoss parts;           // by part, for a graph in rounds
};

class BudgetLedger {
 public:
  // What ReportOnce() asks for when the graph has no report yet.
  struct NewReport {
    std::vector<std::uint8_t> bytes;
    double epsilon = 0;
  };
  using ReportMaker = std::function<Result<NewReport>()>;

  // Loads the state. `epsilon_cap` > 0 limits the total spend (+infinity: no
  // cap). Errors: kInvalidArgument for a NaN or non-positive cap, kDataLoss for
  // a corrupt state, and whatever `storage.load` returns.
  static Result<std::unique_ptr<BudgetLedger>> Open(LedgerStorage storage, double epsilon_cap);

  // The report for `graph_id`: the stored bytes if there are any (`make` is not
  // called); otherwise make()'s report, after checking the cap and storing it.
  // Errors: kResourceExhausted if the new report's epsilon would take the
  // total above the cap (nothing stored); make()'s and store's errors.
  Result<std::vector<std::uint8_t>> ReportOnce(std::uint64_t graph_id, const ReportMaker& make);

  // The memoised report of `data` for round `round` of the builder's graph
  // (docs/rounds.md). The graph's first round draws its secret key from
  // `rng` (the OS CSPRNG); every round draws its report id from it. The same
  // round again returns the stored bytes (a retry; `data` is not read). The
  // report carries its round (wire format version 2).
  // Errors, each before anything is stored: kInvalidArgument for round 0 or
  // one above 2^32 - 1; kFailedPrecondition for a round
  // before the last one, a graph reported once without rounds, a policy that
  // differs from the one of the graph's earlier rounds, or an embedding
  // graph; kResourceExhausted if the loss after this round would take the
  // total above the cap; the builder's errors for bad data; store's.
  Result<std::vector<std::uint8_t>> ReportRound(const ReportBuilder& builder, const UserData& data,
                                                std::uint64_t round, RandomSource& rng);

  // What `graph_id` has cost so far; kFailedPrecondition if it has no report.
  Result<GraphLoss> Loss(std::uint64_t graph_id) const;

  // The stored report of `graph_id`, or kFailedPrecondition if there is none.
  Result<std::vector<std::uint8_t>> Find(std::uint64_t graph_id) const;

  double spent() const;
  double cap() const { return cap_; }
  std::size_t size() const;

  // The serialized state (what `store` receives); exposed for tests and tools.
  static std::vector<std::uint8_t> Serialize(const std::map<std::uint64_t, LedgerEntry>& entries);
  static Result<std::map<std::uint64_t, LedgerEntry>> Parse(const std::vector<std::uint8_t>& state);

 private:
  BudgetLedger(LedgerStorage storage, double cap) : storage_(std::move(storage)), cap_(cap) {}

  LedgerStorage storage_;
  const double cap_;
  // A bare-metal build's C++ library has no threads (and no std::mutex): one
  // thread of control runs the SDK there, so the lock is nothing.
#if defined(__GLIBCXX__) && !defined(_GLIBCXX_HAS_GTHREADS)
  struct Mutex {
    void lock() {}
    void unlock() {}
  };
#else
  using Mutex = std::mutex;
#endif
  mutable Mutex mu_;
  std::map<std::uint64_t, LedgerEntry> entries_;  // guarded by mu_
  double spent_ = 0;                              // guarded by mu_
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_BUDGET_LEDGER_H_
