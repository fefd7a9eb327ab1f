// The contract every Store backend keeps (store/store.h), as
// checks any backend's test runs against its own store: one report per
// (graph, user) with duplicate and conflict answers, across restarts; group
// commit under concurrent inserts, each answered after its commit; reads in
// user order; graph settings; training jobs whose ids are never reused.
// `open` opens the backend's store afresh on the same data (a restart).
#ifndef LDPGRAPH_TESTS_SUPPORT_STORE_CONTRACT_H_
#define LDPGRAPH_TESTS_SUPPORT_STORE_CONTRACT_H_

#include <doctest/doctest.h>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>

#include "store/document_store.h"
#include "store/report_store.h"

namespace ldpgraph {
namespace testing {

using StoreOpener = std::function<Result<std::unique_ptr<Store>>(CommitObserver)>;

constexpr std::uint64_t kContractGraph = 0xFFFFFFFFFFFFFFF0ull;  // above 2^63: stored bit-cast

inline ReportRecord ContractRecord(std::uint32_t user, std::uint8_t id, std::uint8_t fill = 7,
                                   std::uint64_t graph = kContractGraph) {
  ReportRecord r;
  r.graph_id = graph;
  r.user_id = user;
  r.report_id.fill(id);
  r.bytes.assign(10 + user % 5, fill);
  return r;
}

// Inserts and waits for the commit's answer.
inline Result<InsertOutcome> InsertSync(Store& store, ReportRecord r) {
  std::mutex mu;
  std::condition_variable cv;
  bool done = false;
  Result<InsertOutcome> result = Status::Internal("unset");
  store.Insert(std::move(r), [&](Result<InsertOutcome> outcome) {
    std::lock_guard<std::mutex> lock(mu);
    result = std::move(outcome);
    done = true;
    cv.notify_one();
  });
  std::unique_lock<std::mutex> lock(mu);
  cv.wait(lock, [&] { return done; });
  return result;
}

inline void CheckOneReportPerUserAcrossRestarts(const StoreOpener& open) {
  std::atomic<std::size_t> committed{0};
  {
    auto store = open([&](std::size_t n, double) { committed += n; });
    REQUIRE(store.ok());
    CHECK((*store)->CreateGraph({kContractGraph, "{}", 0}).ok());
    CHECK((*store)->CreateGraph({kContractGraph, "{}", 0}).code() == StatusCode::kFailedPrecondition);
    CHECK(*InsertSync(**store, ContractRecord(1, 1)) == InsertOutcome::kStored);
    CHECK(*InsertSync(**store, ContractRecord(1, 1)) == InsertOutcome::kDuplicate);
    CHECK(*InsertSync(**store, ContractRecord(1, 2)) == InsertOutcome::kConflict);     // other id
    CHECK(*InsertSync(**store, ContractRecord(1, 1, 8)) == InsertOutcome::kConflict);  // same id, other bytes
    CHECK(*InsertSync(**store, ContractRecord(0xFFFFFFFFu, 3)) == InsertOutcome::kStored);  // the largest user id
    CHECK(committed.load() == 2);
  }
  auto store = open(nullptr);
  REQUIRE(store.ok());
  CHECK(*InsertSync(**store, ContractRecord(1, 1)) == InsertOutcome::kDuplicate);
  CHECK(*InsertSync(**store, ContractRecord(0xFFFFFFFFu, 3)) == InsertOutcome::kDuplicate);
  auto graphs = (*store)->ListGraphs();
  REQUIRE(graphs.ok());
  REQUIRE(graphs->size() == 1);
  CHECK((*graphs)[0].graph_id == kContractGraph);
  CHECK((*graphs)[0].config_json == "{}");
  CHECK((*graphs)[0].created_unix > 0);
}

inline void CheckGroupCommitOfConcurrentInserts(const StoreOpener& open) {
  std::atomic<std::size_t> commits{0};
  auto store = open([&](std::size_t, double) { ++commits; });
  REQUIRE(store.ok());
  constexpr std::uint32_t kUsers = 2000;
  std::atomic<std::uint32_t> answered{0}, stored{0};
  for (std::uint32_t u = 0; u < kUsers; ++u) {
    (*store)->Insert(ContractRecord(u, static_cast<std::uint8_t>(u)), [&](Result<InsertOutcome> r) {
      if (r.ok() && *r == InsertOutcome::kStored) ++stored;
      ++answered;
    });
  }
  (*store)->Close();  // commits what is queued and answers everyone
  CHECK(answered.load() == kUsers);
  CHECK(stored.load() == kUsers);
  CHECK(commits.load() < kUsers / 10);  // many reports per transaction
  bool after_close = false;
  (*store)->Insert(ContractRecord(9999, 1), [&](Result<InsertOutcome> r) {
    after_close = r.status().code() == StatusCode::kUnavailable;
  });
  CHECK(after_close);

  auto again = open(nullptr);
  REQUIRE(again.ok());
  std::uint32_t seen = 0, next_user = 0;
  bool ordered = true, intact = true;
  REQUIRE((*again)->ForEachReport(kContractGraph, [&](const ReportRecord& r) {
                     ordered = ordered && r.user_id == next_user++;
                     intact = intact && r.bytes == ContractRecord(r.user_id, 0).bytes &&
                              r.report_id[0] == static_cast<std::uint8_t>(r.user_id);
                     ++seen;
                   }).ok());
  CHECK(seen == kUsers);
  CHECK(ordered);
  CHECK(intact);
  auto counts = (*again)->CountReports();
  REQUIRE(counts.ok());
  REQUIRE(counts->size() == 1);
  CHECK((*counts)[0].reports == kUsers);
  // Another graph's reports are not this one's.
  CHECK(*InsertSync(**again, ContractRecord(5, 5, 7, 42)) == InsertOutcome::kStored);
  std::uint32_t other = 0;
  REQUIRE((*again)->ForEachReport(42, [&](const ReportRecord&) { ++other; }).ok());
  CHECK(other == 1);
}

// Twins in one batch: the first is stored, the second answered by it.
inline void CheckTwinsInOneBatch(const StoreOpener& open) {
  auto store = open(nullptr);
  REQUIRE(store.ok());
  std::vector<Result<InsertOutcome>> answers(3, Status::Internal("unset"));
  std::atomic<int> answered{0};
  const ReportRecord records[] = {ContractRecord(7, 1), ContractRecord(7, 1), ContractRecord(7, 2)};
  for (int i = 0; i < 3; ++i) {
    (*store)->Insert(records[i], [&answers, &answered, i](Result<InsertOutcome> r) {
      answers[static_cast<std::size_t>(i)] = std::move(r);
      ++answered;
    });
  }
  (*store)->Close();
  REQUIRE(answered.load() == 3);
  CHECK(*answers[0] == InsertOutcome::kStored);
  CHECK(*answers[1] == InsertOutcome::kDuplicate);
  CHECK(*answers[2] == InsertOutcome::kConflict);
}

inline void CheckGraphSettingsAndJobs(const StoreOpener& open) {
  std::uint64_t first_job = 0;
  {
    auto store = open(nullptr);
    REQUIRE(store.ok());
    REQUIRE((*store)->CreateGraph({3, "{\"a\":1}", 1700000000}).ok());
    CHECK((*store)->SetGraphLabel(3, 2).ok());
    CHECK((*store)->SetGraphLabel(3, 5).ok());  // replaces
    CHECK((*store)->SetGraphLabel(4, 1).code() == StatusCode::kFailedPrecondition);
    CHECK((*store)->SetGraphSymmetrisation(3, "or").ok());
    CHECK((*store)->SetGraphSymmetrisation(4, "or").code() == StatusCode::kFailedPrecondition);
    Result<std::uint64_t> a = (*store)->AddJob("{\"state\":\"queued\"}");
    Result<std::uint64_t> b = (*store)->AddJob("{\"state\":\"queued\"}");
    REQUIRE(a.ok());
    REQUIRE(b.ok());
    CHECK(*b > *a);
    first_job = *a;
    CHECK((*store)->UpdateJob(*a, "{\"state\":\"done\"}").ok());
    CHECK((*store)->UpdateJob(*b + 100, "{}").code() == StatusCode::kFailedPrecondition);
  }
  auto store = open(nullptr);
  REQUIRE(store.ok());
  auto labels = (*store)->GraphLabels();
  REQUIRE(labels.ok());
  CHECK(labels->at(3) == 5);
  auto rules = (*store)->GraphSymmetrisations();
  REQUIRE(rules.ok());
  CHECK(rules->at(3) == "or");
  auto graphs = (*store)->ListGraphs();
  REQUIRE(graphs.ok());
  REQUIRE(graphs->size() == 1);
  CHECK((*graphs)[0].created_unix == 1700000000);
  CHECK((*graphs)[0].config_json == "{\"a\":1}");
  auto jobs = (*store)->ListJobs();
  REQUIRE(jobs.ok());
  REQUIRE(jobs->size() == 2);
  CHECK((*jobs)[0].job_id == first_job);
  CHECK((*jobs)[0].status_json == "{\"state\":\"done\"}");
  Result<std::uint64_t> c = (*store)->AddJob("{}");
  REQUIRE(c.ok());
  CHECK(*c > (*jobs)[1].job_id);  // never an id used before
}

using DocumentsOpener = std::function<Result<std::unique_ptr<DocumentStore>>()>;

// Numbered documents (document_store.h), across a reopen: numbers only
// grow, an id is taken once, data comes back byte for byte (a large blob
// too), removal is at once.
inline void CheckDocumentContract(const DocumentsOpener& open) {
  std::vector<std::uint8_t> big(12u << 20);
  for (std::size_t i = 0; i < big.size(); ++i) big[i] = static_cast<std::uint8_t>(i * 2654435761u >> 13);
  std::uint64_t first = 0, second = 0;
  {
    auto docs = open();
    REQUIRE(docs.ok());
    Result<std::uint64_t> a = (*docs)->AddNext({1, 2, 3}, "{\"n\":1}");
    Result<std::uint64_t> b = (*docs)->AddNext(big, "{\"n\":2}");
    REQUIRE(a.ok());
    REQUIRE(b.ok());
    CHECK(*b > *a);
    first = *a;
    second = *b;
    CHECK((*docs)->AddAt(1000, {9}, "{}").ok());
    CHECK((*docs)->AddAt(1000, {8}, "{}").code() == StatusCode::kFailedPrecondition);
    CHECK((*docs)->Data(77).status().code() == StatusCode::kFailedPrecondition);
    CHECK((*docs)->Summary(77).status().code() == StatusCode::kFailedPrecondition);
    CHECK((*docs)->Remove(77).code() == StatusCode::kFailedPrecondition);
  }
  auto docs = open();
  REQUIRE(docs.ok());
  Result<std::vector<std::uint8_t>> data = (*docs)->Data(second);
  REQUIRE(data.ok());
  CHECK(*data == big);
  CHECK((*docs)->Summary(first).value() == "{\"n\":1}");
  CHECK((*docs)->SetSummary(first, "{\"n\":11}").ok());  // a status that moves on
  CHECK((*docs)->SetSummary(77, "{}").code() == StatusCode::kFailedPrecondition);
  auto listed = (*docs)->List();
  REQUIRE(listed.ok());
  CHECK(listed->size() == 3);
  CHECK(listed->count(1000) == 1);
  {
    auto again = open();  // the new summary is durable
    REQUIRE(again.ok());
    CHECK((*again)->Summary(first).value() == "{\"n\":11}");
  }
  CHECK((*docs)->Remove(first).ok());
  CHECK((*docs)->Data(first).status().code() == StatusCode::kFailedPrecondition);
  CHECK((*docs)->List()->size() == 2);
  Result<std::uint64_t> next = (*docs)->AddNext({4}, "{}");
  REQUIRE(next.ok());
  CHECK(*next > second);  // never a number handed out before
}

}  // namespace testing
}  // namespace ldpgraph

#endif  // LDPGRAPH_TESTS_SUPPORT_STORE_CONTRACT_H_
