// The SQLite store on a real file: the store contract every backend keeps
// (support/store_contract.h), and the refusal of files that are not ours
// or come from a newer build.
#include <doctest/doctest.h>

#include "store/file_documents.h"
#include "store/sqlite_db.h"
#include "store/sqlite_report_store.h"
#include "support/store_contract.h"
#include "support/store_rounds_contract.h"
#include "support/temp_dir.h"

using ldpgraph::testing::TempDir;

namespace {

ldpgraph::testing::StoreOpener SqliteOpener(const std::string& path) {
  return [path](ldpgraph::CommitObserver on_commit) {
    ldpgraph::SqliteStoreOptions o;
    o.path = path;
    o.on_commit = std::move(on_commit);
    return ldpgraph::OpenSqliteReportStore(o);
  };
}

}  // namespace

TEST_CASE("SqliteStore.OneReportPerUserAcrossRestarts") {
  TempDir dir;
  ldpgraph::testing::CheckOneReportPerUserAcrossRestarts(SqliteOpener(dir.path() + "/s.db"));
}

TEST_CASE("SqliteStore.GroupCommitsConcurrentInserts") {
  TempDir dir;
  ldpgraph::testing::CheckGroupCommitOfConcurrentInserts(SqliteOpener(dir.path() + "/s.db"));
}

TEST_CASE("SqliteStore.TwinsInOneBatch") {
  TempDir dir;
  ldpgraph::testing::CheckTwinsInOneBatch(SqliteOpener(dir.path() + "/s.db"));
}

TEST_CASE("SqliteStore.GraphSettingsAndJobs") {
  TempDir dir;
  ldpgraph::testing::CheckGraphSettingsAndJobs(SqliteOpener(dir.path() + "/s.db"));
}

TEST_CASE("SqliteStore.RoundsTakeTheOpenRoundOnly") {
  TempDir dir;
  ldpgraph::testing::CheckRoundsTakeTheOpenRoundOnly(SqliteOpener(dir.path() + "/s.db"));
}

TEST_CASE("SqliteStore.RoundHistoryIsBounded") {
  TempDir dir;
  ldpgraph::testing::CheckRoundHistoryIsBounded(SqliteOpener(dir.path() + "/s.db"));
}

TEST_CASE("SqliteStore.AClosedRoundNeverChanges") {
  TempDir dir;
  ldpgraph::testing::CheckAClosedRoundNeverChanges(SqliteOpener(dir.path() + "/s.db"));
}

// A store written before rounds (schema 4, as it was): its graphs become
// graphs collected once, their reports round 0, byte for byte.
TEST_CASE("SqliteStore.MigratesAStoreFromBeforeRounds") {
  TempDir dir;
  const std::string path = dir.path() + "/v4.db";
  {
    auto db = ldpgraph::sqlite::Db::Open(path);
    REQUIRE(db.ok());
    REQUIRE(db->Exec("CREATE TABLE graphs (graph_id INTEGER PRIMARY KEY, config_json TEXT NOT NULL,"
                     "  created_unix INTEGER NOT NULL);"
                     "CREATE TABLE reports (graph_id INTEGER NOT NULL, user_id INTEGER NOT NULL,"
                     "  report_id BLOB NOT NULL, body BLOB NOT NULL, received_unix INTEGER NOT NULL,"
                     "  PRIMARY KEY (graph_id, user_id)) WITHOUT ROWID;"
                     "CREATE TABLE graph_labels (graph_id INTEGER PRIMARY KEY REFERENCES graphs (graph_id),"
                     "  label INTEGER NOT NULL, set_unix INTEGER NOT NULL);"
                     "CREATE TABLE graph_symmetrisation (graph_id INTEGER PRIMARY KEY REFERENCES graphs (graph_id),"
                     "  rule TEXT NOT NULL, set_unix INTEGER NOT NULL);"
                     "CREATE TABLE jobs (job_id INTEGER PRIMARY KEY AUTOINCREMENT, status_json TEXT NOT NULL,"
                     "  created_unix INTEGER NOT NULL, updated_unix INTEGER NOT NULL);"
                     "INSERT INTO graphs VALUES (7, '{}', 1700000000);"
                     "INSERT INTO reports VALUES (7, 3, x'0303030303030303030303030303030303', x'0a0b0c', 1700000001);"
                     "INSERT INTO reports VALUES (7, 1, x'01010101010101010101010101010101', x'0d', 1700000002);"
                     "PRAGMA application_id = 1279545415; PRAGMA user_version = 4;")
                .ok());
  }
  auto store = SqliteOpener(path)(nullptr);
  REQUIRE_MESSAGE(store.ok(), store.status().ToString());
  auto rounds = (*store)->Rounds();
  REQUIRE(rounds.ok());
  CHECK(rounds->empty());
  std::vector<std::pair<std::uint32_t, std::uint32_t>> seen;  // (user, round)
  std::vector<std::vector<std::uint8_t>> bodies;
  // User 3's report id is 17 bytes in this file: what a damaged store holds is refused, not read.
  ldpgraph::Status read = (*store)->ForEachReport(7, [&](const ldpgraph::ReportRecord& r) {
    seen.emplace_back(r.user_id, r.round);
    bodies.push_back(r.bytes);
  });
  CHECK(read.code() == ldpgraph::StatusCode::kDataLoss);
  REQUIRE(seen.size() == 1);
  CHECK(seen[0] == std::make_pair(1u, 0u));
  CHECK(bodies[0] == std::vector<std::uint8_t>{0x0d});
  // A one-shot graph still takes round 0 only, and knows user 1.
  ldpgraph::ReportRecord again;
  again.graph_id = 7;
  again.user_id = 1;
  again.report_id.fill(1);
  again.bytes = {0x0d};
  CHECK(*ldpgraph::testing::InsertSync(**store, again) == ldpgraph::InsertOutcome::kDuplicate);
  again.round = 1;
  CHECK(*ldpgraph::testing::InsertSync(**store, again) == ldpgraph::InsertOutcome::kWrongRound);
}

TEST_CASE("FileDocuments.KeepTheDocumentContract") {
  TempDir dir;
  ldpgraph::testing::CheckDocumentContract(
      [&] { return ldpgraph::OpenFileDocuments(dir.path() + "/models", ".model", "model version"); });
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
