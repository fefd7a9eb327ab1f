// The SQLite store on a real file: the store contract every backend keeps
// (support/store_contract.h), and the refusal of files that are not ours
// or come from a newer build.
#include <doctest/doctest.h>

#include "store/file_documents.h"
#include "store/sqlite_db.h"
#include "store/sqlite_report_store.h"
#include "support/store_contract.h"
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
