// The SQLite store on a real file: group commit, one report per (graph,
// user) with duplicate and conflict answers, persistence, migrations, and
// refusal of files that are not ours.
#include <doctest/doctest.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "store/sqlite_db.h"
#include "store/sqlite_report_store.h"
#include "support/temp_dir.h"

using ldpgraph::InsertOutcome;
using ldpgraph::ReportRecord;
using ldpgraph::testing::TempDir;

namespace {

ReportRecord Record(std::uint32_t user, std::uint8_t id, std::uint8_t fill = 7) {
  ReportRecord r;
  r.graph_id = 0xFFFFFFFFFFFFFFF0ull;  // above 2^63: stored bit-cast
  r.user_id = user;
  r.report_id.fill(id);
  r.bytes.assign(10 + user % 5, fill);
  return r;
}

// Inserts and waits for the commit's answer.
ldpgraph::Result<InsertOutcome> InsertSync(ldpgraph::ReportStore& store, ReportRecord r) {
  std::mutex mu;
  std::condition_variable cv;
  bool done = false;
  ldpgraph::Result<InsertOutcome> result = ldpgraph::Status::Internal("unset");
  store.Insert(std::move(r), [&](ldpgraph::Result<InsertOutcome> outcome) {
    std::lock_guard<std::mutex> lock(mu);
    result = std::move(outcome);
    done = true;
    cv.notify_one();
  });
  std::unique_lock<std::mutex> lock(mu);
  cv.wait(lock, [&] { return done; });
  return result;
}

}  // namespace

TEST_CASE("SqliteStore.OneReportPerUserAcrossRestarts") {
  TempDir dir;
  ldpgraph::SqliteStoreOptions o;
  o.path = dir.path() + "/s.db";
  std::atomic<std::size_t> committed{0};
  o.on_commit = [&](std::size_t n, double) { committed += n; };
  {
    auto store = ldpgraph::OpenSqliteReportStore(o);
    REQUIRE(store.ok());
    CHECK((*store)->CreateGraph({0xFFFFFFFFFFFFFFF0ull, "{}", 0}).ok());
    CHECK((*store)->CreateGraph({0xFFFFFFFFFFFFFFF0ull, "{}", 0}).code() ==
          ldpgraph::StatusCode::kFailedPrecondition);
    CHECK(*InsertSync(**store, Record(1, 1)) == InsertOutcome::kStored);
    CHECK(*InsertSync(**store, Record(1, 1)) == InsertOutcome::kDuplicate);
    CHECK(*InsertSync(**store, Record(1, 2)) == InsertOutcome::kConflict);     // other id
    CHECK(*InsertSync(**store, Record(1, 1, 8)) == InsertOutcome::kConflict);  // same id, other bytes
    CHECK(committed.load() == 1);
  }
  auto store = ldpgraph::OpenSqliteReportStore(o);
  REQUIRE(store.ok());
  CHECK(*InsertSync(**store, Record(1, 1)) == InsertOutcome::kDuplicate);
  auto graphs = (*store)->ListGraphs();
  REQUIRE(graphs.ok());
  REQUIRE(graphs->size() == 1);
  CHECK((*graphs)[0].graph_id == 0xFFFFFFFFFFFFFFF0ull);
  CHECK((*graphs)[0].created_unix > 0);
}

TEST_CASE("SqliteStore.GroupCommitsConcurrentInserts") {
  TempDir dir;
  ldpgraph::SqliteStoreOptions o;
  o.path = dir.path() + "/s.db";
  std::atomic<std::size_t> commits{0};
  o.on_commit = [&](std::size_t, double) { ++commits; };
  auto store = ldpgraph::OpenSqliteReportStore(o);
  REQUIRE(store.ok());
  constexpr std::uint32_t kUsers = 2000;
  std::atomic<std::uint32_t> answered{0}, stored{0};
  for (std::uint32_t u = 0; u < kUsers; ++u) {
    (*store)->Insert(Record(u, static_cast<std::uint8_t>(u)), [&](ldpgraph::Result<InsertOutcome> r) {
      if (r.ok() && *r == InsertOutcome::kStored) ++stored;
      ++answered;
    });
  }
  (*store)->Close();  // commits what is queued and answers everyone
  CHECK(answered.load() == kUsers);
  CHECK(stored.load() == kUsers);
  CHECK(commits.load() < kUsers / 10);  // many reports per transaction
  bool after_close = false;
  (*store)->Insert(Record(9999, 1), [&](ldpgraph::Result<InsertOutcome> r) {
    after_close = r.status().code() == ldpgraph::StatusCode::kUnavailable;
  });
  CHECK(after_close);

  ldpgraph::SqliteStoreOptions reopen;
  reopen.path = o.path;
  auto again = ldpgraph::OpenSqliteReportStore(reopen);
  REQUIRE(again.ok());
  std::uint32_t seen = 0, next_user = 0;
  bool ordered = true, intact = true;
  REQUIRE((*again)->ForEachReport(0xFFFFFFFFFFFFFFF0ull, [&](const ReportRecord& r) {
                     ordered = ordered && r.user_id == next_user++;
                     intact = intact && r.bytes == Record(r.user_id, 0).bytes &&
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
}

TEST_CASE("SqliteStore.RefusesFilesThatAreNotOurs") {
  TempDir dir;
  ldpgraph::SqliteStoreOptions o;
  o.path = dir.Write("text.db", "this is not a database at all, just some text that is long enough........");
  auto text = ldpgraph::OpenSqliteReportStore(o);
  REQUIRE_FALSE(text.ok());
  CHECK(text.status().code() == ldpgraph::StatusCode::kDataLoss);

  o.path = dir.path() + "/other.db";
  {
    auto db = ldpgraph::sqlite::Db::Open(o.path);
    REQUIRE(db.ok());
    REQUIRE(db->Exec("CREATE TABLE t(x)").ok());
  }
  auto other = ldpgraph::OpenSqliteReportStore(o);
  REQUIRE_FALSE(other.ok());
  CHECK(other.status().message().find("not an ldpgraph store") != std::string::npos);

  o.path = dir.path() + "/future.db";
  {
    auto ours = ldpgraph::OpenSqliteReportStore(o);
    REQUIRE(ours.ok());
  }
  {
    auto db = ldpgraph::sqlite::Db::Open(o.path);
    REQUIRE(db.ok());
    REQUIRE(db->Exec("PRAGMA user_version = 99").ok());
  }
  auto future = ldpgraph::OpenSqliteReportStore(o);
  REQUIRE_FALSE(future.ok());
  CHECK(future.status().message().find("schema version 99") != std::string::npos);

  o.path = "/nonexistent-dir/x.db";
  CHECK(ldpgraph::OpenSqliteReportStore(o).status().code() == ldpgraph::StatusCode::kUnavailable);
}
