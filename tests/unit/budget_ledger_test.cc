#include "ldpgraph/budget_ledger.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <string>
#include <unistd.h>

#include "support/memory_ledger_storage.h"

using namespace ldpgraph;
using ldpgraph::testing::MemoryStore;

namespace {

BudgetLedger::ReportMaker Maker(std::vector<std::uint8_t> bytes, double eps, int* calls) {
  return [bytes, eps, calls]() -> Result<BudgetLedger::NewReport> {
    ++*calls;
    return BudgetLedger::NewReport{bytes, eps};
  };
}

std::string TempPath(const char* name) {
  return std::string("/tmp/ldpgraph_ledger_test_") + std::to_string(::getpid()) + "_" + name;
}

}  // namespace

TEST_CASE("BudgetLedger.ReturnsTheSameBytesWithoutRandomizingAgain") {
  MemoryStore store;
  auto ledger = BudgetLedger::Open(store.Storage(), std::numeric_limits<double>::infinity());
  REQUIRE(ledger.ok());
  int calls = 0;
  auto first = (*ledger)->ReportOnce(5, Maker({1, 2, 3}, 1.0, &calls));
  auto second = (*ledger)->ReportOnce(5, Maker({9, 9}, 1.0, &calls));
  REQUIRE(first.ok());
  REQUIRE(second.ok());
  CHECK(*first == *second);
  CHECK(calls == 1);
  CHECK((*ledger)->spent() == 1.0);
}

TEST_CASE("BudgetLedger.SumsSpendOverGraphs") {
  MemoryStore store;
  auto ledger = BudgetLedger::Open(store.Storage(), std::numeric_limits<double>::infinity());
  int calls = 0;
  REQUIRE((*ledger)->ReportOnce(1, Maker({1}, 1.0, &calls)).ok());
  REQUIRE((*ledger)->ReportOnce(2, Maker({2}, 0.5, &calls)).ok());
  CHECK((*ledger)->spent() == 1.5);
  CHECK((*ledger)->size() == 2u);
}

TEST_CASE("BudgetLedger.RefusesAReportBeyondTheCapAndStoresNothing") {
  MemoryStore store;
  auto ledger = BudgetLedger::Open(store.Storage(), 2.0);
  int calls = 0;
  REQUIRE((*ledger)->ReportOnce(1, Maker({1}, 1.5, &calls)).ok());
  const int stores = store.stores;
  auto refused = (*ledger)->ReportOnce(2, Maker({2}, 1.0, &calls));
  CHECK(refused.status().code() == StatusCode::kResourceExhausted);
  CHECK(store.stores == stores);
  CHECK((*ledger)->spent() == 1.5);
  CHECK((*ledger)->Find(2).status().code() == StatusCode::kFailedPrecondition);
}

TEST_CASE("BudgetLedger.NonPrivateReportExceedsAnyCap") {
  MemoryStore store;
  auto ledger = BudgetLedger::Open(store.Storage(), 100.0);
  int calls = 0;
  auto r = (*ledger)->ReportOnce(1, Maker({1}, std::numeric_limits<double>::infinity(), &calls));
  CHECK(r.status().code() == StatusCode::kResourceExhausted);
}

TEST_CASE("BudgetLedger.FailedStoreChangesNothing") {
  MemoryStore store;
  auto ledger = BudgetLedger::Open(store.Storage(), 10.0);
  store.fail_store = true;
  int calls = 0;
  auto r = (*ledger)->ReportOnce(1, Maker({1}, 1.0, &calls));
  CHECK(r.status().code() == StatusCode::kUnavailable);
  CHECK((*ledger)->spent() == 0.0);
  CHECK((*ledger)->size() == 0u);
}

TEST_CASE("BudgetLedger.MakerErrorIsPassedOnAndNothingStored") {
  MemoryStore store;
  auto ledger = BudgetLedger::Open(store.Storage(), 10.0);
  auto r = (*ledger)->ReportOnce(1, []() -> Result<BudgetLedger::NewReport> {
    return Status::OutOfRange("neighbour id 12 is not below n = 10");
  });
  CHECK(r.status().code() == StatusCode::kOutOfRange);
  CHECK(store.stores == 0);
}

TEST_CASE("BudgetLedger.FailsCapNan") {
  MemoryStore store;
  CHECK(BudgetLedger::Open(store.Storage(), std::nan("")).status().code() == StatusCode::kInvalidArgument);
}
TEST_CASE("BudgetLedger.FailsCapZero") {
  MemoryStore store;
  CHECK(BudgetLedger::Open(store.Storage(), 0.0).status().code() == StatusCode::kInvalidArgument);
}
TEST_CASE("BudgetLedger.FailsMissingCallbacks") {
  CHECK(BudgetLedger::Open(LedgerStorage{}, 1.0).status().code() == StatusCode::kInvalidArgument);
}

TEST_CASE("BudgetLedger.SurvivesARestartThroughAFile") {
  const std::string path = TempPath("restart");
  std::remove(path.c_str());
  int calls = 0;
  {
    auto ledger = BudgetLedger::Open(FileLedgerStorage(path), 5.0);
    REQUIRE(ledger.ok());
    REQUIRE((*ledger)->ReportOnce(42, Maker({7, 8, 9}, 1.25, &calls)).ok());
  }
  auto reopened = BudgetLedger::Open(FileLedgerStorage(path), 5.0);
  REQUIRE(reopened.ok());
  CHECK((*reopened)->spent() == 1.25);
  auto again = (*reopened)->ReportOnce(42, Maker({0}, 1.25, &calls));
  REQUIRE(again.ok());
  CHECK(*again == std::vector<std::uint8_t>{7, 8, 9});
  CHECK(calls == 1);
  std::remove(path.c_str());
}

TEST_CASE("BudgetLedger.CorruptFileIsDataLossNotAReset") {
  const std::string path = TempPath("corrupt");
  int calls = 0;
  {
    auto ledger = BudgetLedger::Open(FileLedgerStorage(path), 5.0);
    REQUIRE((*ledger)->ReportOnce(1, Maker({1, 2}, 1.0, &calls)).ok());
  }
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(12);
    f.put('\x7f');
  }
  auto reopened = BudgetLedger::Open(FileLedgerStorage(path), 5.0);
  CHECK(reopened.status().code() == StatusCode::kDataLoss);
  std::remove(path.c_str());
}

TEST_CASE("BudgetLedger.EveryTruncatedStateIsRejected") {
  std::map<std::uint64_t, LedgerEntry> entries;
  entries[3].epsilon = 0.5;
  entries[3].bytes = {1, 2, 3};
  entries[9].epsilon = 1.0;
  entries[9].bytes = {4};
  auto state = BudgetLedger::Serialize(entries);
  auto parsed = BudgetLedger::Parse(state);
  REQUIRE(parsed.ok());
  CHECK(parsed->size() == 2u);
  CHECK(parsed->at(3).bytes == std::vector<std::uint8_t>{1, 2, 3});
  for (std::size_t len = 1; len < state.size(); ++len) {
    std::vector<std::uint8_t> cut(state.begin(), state.begin() + static_cast<std::ptrdiff_t>(len));
    CHECK(BudgetLedger::Parse(cut).status().code() == StatusCode::kDataLoss);
  }
}

TEST_CASE("BudgetLedger.LoadsAVersion1State") {
  // Written by a ledger from before rounds: graph 3, epsilon 0.5, bytes 1 2 3.
  const char* hex = "4c474c4544474552010103000000000000e03f03010203a6991108";
  std::vector<std::uint8_t> state;
  for (const char* p = hex; *p != 0; p += 2) state.push_back(static_cast<std::uint8_t>(std::stoi(std::string(p, 2), nullptr, 16)));
  auto parsed = BudgetLedger::Parse(state);
  REQUIRE(parsed.ok());
  REQUIRE(parsed->size() == 1u);
  CHECK(parsed->at(3).epsilon == 0.5);
  CHECK(parsed->at(3).bytes == std::vector<std::uint8_t>{1, 2, 3});
  CHECK_FALSE(parsed->at(3).in_rounds);
}
