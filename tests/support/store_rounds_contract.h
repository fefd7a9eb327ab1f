// The rounds part of the store contract (store/report_store.h,
// docs/rounds.md), for every backend: a graph collected in rounds takes
// reports of its open round only; a closed round's graph never changes,
// even while reports race the closing; a graph is assembled as of any kept
// round from each user's newest report up to it; the history is bounded
// and an older round is refused, not assembled wrong.
#ifndef LDPGRAPH_TESTS_SUPPORT_STORE_ROUNDS_CONTRACT_H_
#define LDPGRAPH_TESTS_SUPPORT_STORE_ROUNDS_CONTRACT_H_

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <map>
#include <thread>
#include <vector>

#include "support/store_contract.h"

namespace ldpgraph {
namespace testing {

constexpr std::uint64_t kRoundsGraph = 0xFFFFFFFFFFFFFF00ull;

inline ReportRecord RoundRecord(std::uint32_t user, std::uint32_t round, std::uint8_t fill = 7,
                                std::uint64_t graph = kRoundsGraph) {
  ReportRecord r = ContractRecord(user, static_cast<std::uint8_t>(round * 16 + user % 16), fill, graph);
  r.round = round;
  return r;
}

// user -> (round, first byte of the body) of the graph as of `round`.
inline std::map<std::uint32_t, std::pair<std::uint32_t, std::uint8_t>> GraphAsOf(Store& store,
                                                                                   std::uint32_t round,
                                                                                   std::uint64_t graph = kRoundsGraph) {
  std::map<std::uint32_t, std::pair<std::uint32_t, std::uint8_t>> seen;
  Status s = store.ForEachReport(graph, round, [&](const ReportRecord& r) {
    seen[r.user_id] = {r.round, r.bytes.empty() ? 0 : r.bytes[0]};
  });
  REQUIRE_MESSAGE(s.ok(), s.ToString());
  return seen;
}

inline void CheckRoundsTakeTheOpenRoundOnly(const StoreOpener& open) {
  auto store = open(nullptr);
  REQUIRE(store.ok());
  Store& s = **store;
  REQUIRE(s.CreateGraph({kRoundsGraph, "{}", 0, 2}).ok());
  REQUIRE(s.CreateGraph({kContractGraph, "{}", 0}).ok());  // collected once
  auto rounds = s.Rounds();
  REQUIRE(rounds.ok());
  REQUIRE(rounds->size() == 1);
  CHECK(rounds->at(kRoundsGraph).current == 1);
  CHECK(rounds->at(kRoundsGraph).history == 2);

  CHECK(*InsertSync(s, RoundRecord(1, 1)) == InsertOutcome::kStored);
  CHECK(*InsertSync(s, RoundRecord(1, 1)) == InsertOutcome::kDuplicate);
  CHECK(*InsertSync(s, RoundRecord(1, 1, 8)) == InsertOutcome::kConflict);
  CHECK(*InsertSync(s, RoundRecord(2, 2)) == InsertOutcome::kWrongRound);  // not open yet
  CHECK(*InsertSync(s, RoundRecord(2, 0)) == InsertOutcome::kWrongRound);  // a one-shot report
  CHECK(*InsertSync(s, RoundRecord(2, 1, 7, kContractGraph)) == InsertOutcome::kWrongRound);
  CHECK(*InsertSync(s, RoundRecord(2, 0, 7, kContractGraph)) == InsertOutcome::kStored);
  CHECK(*InsertSync(s, RoundRecord(2, 1)) == InsertOutcome::kStored);

  // Closing round 1: only once, and only the graph in rounds.
  Result<RoundState> opened = s.OpenRound(kRoundsGraph, 1);
  REQUIRE(opened.ok());
  CHECK(opened->current == 2);
  CHECK(opened->opened_unix > 0);
  Result<RoundState> again = s.OpenRound(kRoundsGraph, 1);
  CHECK(again.status().code() == StatusCode::kFailedPrecondition);
  CHECK(again.status().message().find("round 2 is") != std::string::npos);
  CHECK(s.OpenRound(kContractGraph, 0).status().code() == StatusCode::kFailedPrecondition);

  CHECK(*InsertSync(s, RoundRecord(3, 1)) == InsertOutcome::kWrongRound);  // round 1 closed
  CHECK(*InsertSync(s, RoundRecord(1, 1)) == InsertOutcome::kDuplicate);   // a late retry still answered
  CHECK(*InsertSync(s, RoundRecord(1, 2, 9)) == InsertOutcome::kStored);   // user 1 changed
  CHECK(*InsertSync(s, RoundRecord(3, 2)) == InsertOutcome::kStored);      // user 3 is new

  // Round 1's graph, round 2's (user 2 carried forward), the newest.
  using Seen = std::map<std::uint32_t, std::pair<std::uint32_t, std::uint8_t>>;
  CHECK(GraphAsOf(s, 1) == Seen{{1, {1, 7}}, {2, {1, 7}}});
  const Seen second = {{1, {2, 9}}, {2, {1, 7}}, {3, {2, 7}}};
  CHECK(GraphAsOf(s, 2) == second);
  CHECK(GraphAsOf(s, kNewestRound) == second);
  CHECK(s.ForEachReport(kRoundsGraph, 0, [](const ReportRecord&) {}).code() == StatusCode::kFailedPrecondition);
  auto bytes = s.ReportBytes(kRoundsGraph, 1);
  REQUIRE(bytes.ok());
  CHECK(*bytes == RoundRecord(1, 1).bytes.size() + RoundRecord(2, 1).bytes.size());
  auto counts = s.CountReports();
  REQUIRE(counts.ok());
  for (const GraphReportCount& c : *counts) {
    if (c.graph_id == kRoundsGraph) CHECK(c.reports == 3);  // users, not reports
  }
}

// History 1: one closed round kept besides the open one.
inline void CheckRoundHistoryIsBounded(const StoreOpener& open) {
  auto store = open(nullptr);
  REQUIRE(store.ok());
  Store& s = **store;
  REQUIRE(s.CreateGraph({kRoundsGraph, "{}", 0, 1}).ok());
  CHECK(*InsertSync(s, RoundRecord(1, 1)) == InsertOutcome::kStored);
  CHECK(*InsertSync(s, RoundRecord(2, 1)) == InsertOutcome::kStored);
  REQUIRE(s.OpenRound(kRoundsGraph, 1).ok());
  REQUIRE(s.OpenRound(kRoundsGraph, 2).ok());
  CHECK(*InsertSync(s, RoundRecord(1, 3, 8)) == InsertOutcome::kStored);  // user 2 stays silent
  REQUIRE(s.OpenRound(kRoundsGraph, 3).ok());
  CHECK(*InsertSync(s, RoundRecord(1, 4, 9)) == InsertOutcome::kStored);
  Result<RoundState> state = s.OpenRound(kRoundsGraph, 4);
  REQUIRE(state.ok());
  CHECK(state->current == 5);
  CHECK(state->OldestKept() == 4);
  using Seen = std::map<std::uint32_t, std::pair<std::uint32_t, std::uint8_t>>;
  // Round 4 still assembles: user 2's round-1 report is her newest up to it.
  CHECK(GraphAsOf(s, 4) == Seen{{1, {4, 9}}, {2, {1, 7}}});
  CHECK(GraphAsOf(s, 5) == Seen{{1, {4, 9}}, {2, {1, 7}}});
  // Round 3 is gone (user 1's round-3 report with it), and says so.
  Status older = s.ForEachReport(kRoundsGraph, 3, [](const ReportRecord&) {});
  CHECK(older.code() == StatusCode::kFailedPrecondition);
  CHECK(older.message().find("no longer kept") != std::string::npos);
  std::size_t rows = 0;  // what the store still holds of user 1: rounds 4 only
  REQUIRE(s.ForEachReport(kRoundsGraph, kNewestRound, [&](const ReportRecord&) { ++rows; }).ok());
  CHECK(rows == 2);
  CHECK(s.ReportBytes(kRoundsGraph, 4).ok());
}

// Reports of round 1 race its closing: whatever was acknowledged stored is
// in round 1's graph, and that graph does not change after the close.
// `senders` take the reports in turn (daemons sharing a store), `closer`
// closes the round.
inline void CheckAClosedRoundNeverChanges(const std::vector<Store*>& senders, Store& closer) {
  REQUIRE(closer.CreateGraph({kRoundsGraph, "{}", 0, 4}).ok());
  constexpr std::uint32_t kUsers = 3000;
  std::vector<std::atomic<int>> outcome(kUsers);
  for (auto& o : outcome) o = -1;
  std::atomic<std::uint32_t> answered{0};
  std::vector<std::thread> threads;
  for (std::size_t k = 0; k < senders.size(); ++k) {
    threads.emplace_back([&, k] {
      for (std::uint32_t u = static_cast<std::uint32_t>(k); u < kUsers; u += static_cast<std::uint32_t>(senders.size())) {
        senders[k]->Insert(RoundRecord(u, 1), [&, u](Result<InsertOutcome> r) {
          outcome[u] = r.ok() ? static_cast<int>(*r) : 100;
          ++answered;
        });
        // Paced (about 0.1 s in all), so that the close lands among them.
        if (u % 32 == 31) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    });
  }
  while (answered.load() < kUsers / 4) std::this_thread::yield();
  REQUIRE(closer.OpenRound(kRoundsGraph, 1).ok());
  const auto at_close = GraphAsOf(closer, 1);
  for (std::thread& t : threads) t.join();
  while (answered.load() < kUsers) std::this_thread::yield();
  const auto after = GraphAsOf(*senders[0], 1);
  CHECK(after == at_close);
  std::uint32_t stored = 0, refused = 0;
  for (std::uint32_t u = 0; u < kUsers; ++u) {
    const int o = outcome[u].load();
    if (o == static_cast<int>(InsertOutcome::kStored)) {
      ++stored;
      CHECK_MESSAGE(after.count(u), "user " << u << " was acknowledged but is not in round 1");
    } else {
      CHECK(o == static_cast<int>(InsertOutcome::kWrongRound));
      CHECK_FALSE(after.count(u));
      ++refused;
    }
  }
  CHECK(stored == after.size());
  CHECK(stored >= kUsers / 4);
  CHECK(refused > 0);  // the close did land among the reports
  MESSAGE(senders.size() << " sender(s): round 1 closed after " << stored << " stored reports; " << refused
                         << " came too late");
}

inline void CheckAClosedRoundNeverChanges(const StoreOpener& open) {
  auto store = open(nullptr);
  REQUIRE(store.ok());
  CheckAClosedRoundNeverChanges({store->get()}, **store);
}

}  // namespace testing
}  // namespace ldpgraph

#endif  // LDPGRAPH_TESTS_SUPPORT_STORE_ROUNDS_CONTRACT_H_
