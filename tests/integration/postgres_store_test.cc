// The PostgreSQL store on a real PostgreSQL server (testbed/scratch_postgres.h):
// the contract every backend keeps (support/store_contract.h), then what only
// a shared store meets: several stores (daemons) inserting the same users at
// once, stores opening together on an empty database, a connection the
// server drops, a schema newer than this build, a wrong password (which
// never appears in the error), and TLS to the database with its
// certificate checked.
#include <doctest/doctest.h>

#include <atomic>
#include <cstdlib>
#include <optional>
#include <set>
#include <thread>
#include <vector>

#include "store/pg_db.h"
#include "store/postgres_documents.h"
#include "store/postgres_report_store.h"
#include "support/store_contract.h"
#include "support/store_rounds_contract.h"
#include "testbed/scratch_postgres.h"
#include "testbed/test_pki.h"

using namespace ldpgraph;

namespace {

// One server for the whole binary; null (with the reason printed once) when
// the machine has no PostgreSQL.
ScratchPostgres* Server() {
  static std::unique_ptr<ScratchPostgres> server = [] {
    Result<std::unique_ptr<ScratchPostgres>> s = ScratchPostgres::Start();
    if (!s.ok()) {
      MESSAGE("skipped: " << s.status().ToString());
      return std::unique_ptr<ScratchPostgres>();
    }
    return std::move(s).value();
  }();
  return server.get();
}

std::atomic<int> databases{0};

// A fresh database and an opener for it.
ldpgraph::testing::StoreOpener FreshStore(ScratchPostgres& server, std::string* conninfo = nullptr) {
  Result<std::string> db = server.CreateDatabase("contract_" + std::to_string(databases++));
  REQUIRE(db.ok());
  if (conninfo != nullptr) *conninfo = *db;
  const std::string info = *db, password = server.password();
  return [info, password](CommitObserver on_commit) {
    PostgresStoreOptions o;
    o.conninfo = info;
    o.password = password;
    o.on_commit = std::move(on_commit);
    return OpenPostgresReportStore(o);
  };
}

// The dbname of a connection string.
std::string DatabaseOf(const std::string& conninfo) {
  const std::size_t from = conninfo.find("dbname=") + 7;
  return conninfo.substr(from, conninfo.find(' ', from) - from);
}

}  // namespace

TEST_CASE("PostgresStore.OneReportPerUserAcrossRestarts") {
  if (Server() == nullptr) return;
  ldpgraph::testing::CheckOneReportPerUserAcrossRestarts(FreshStore(*Server()));
}

TEST_CASE("PostgresStore.GroupCommitsConcurrentInserts") {
  if (Server() == nullptr) return;
  ldpgraph::testing::CheckGroupCommitOfConcurrentInserts(FreshStore(*Server()));
}

TEST_CASE("PostgresStore.TwinsInOneBatch") {
  if (Server() == nullptr) return;
  ldpgraph::testing::CheckTwinsInOneBatch(FreshStore(*Server()));
}

TEST_CASE("PostgresStore.GraphSettingsAndJobs") {
  if (Server() == nullptr) return;
  ldpgraph::testing::CheckGraphSettingsAndJobs(FreshStore(*Server()));
}

TEST_CASE("PostgresStore.RoundsTakeTheOpenRoundOnly") {
  if (Server() == nullptr) return;
  ldpgraph::testing::CheckRoundsTakeTheOpenRoundOnly(FreshStore(*Server()));
}

TEST_CASE("PostgresStore.RoundHistoryIsBounded") {
  if (Server() == nullptr) return;
  ldpgraph::testing::CheckRoundHistoryIsBounded(FreshStore(*Server()));
}

TEST_CASE("PostgresStore.AClosedRoundNeverChanges") {
  if (Server() == nullptr) return;
  ldpgraph::testing::CheckAClosedRoundNeverChanges(FreshStore(*Server()));
}

// Two daemons share the store: reports to both race one daemon closing the
// round; each acknowledged report is in the closed round, which then holds still.
TEST_CASE("PostgresStore.AClosedRoundNeverChangesAcrossDaemons") {
  if (Server() == nullptr) return;
  const ldpgraph::testing::StoreOpener open = FreshStore(*Server());
  auto a = open(nullptr), b = open(nullptr);
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  ldpgraph::testing::CheckAClosedRoundNeverChanges({a->get(), b->get()}, **b);
}

// A database written before rounds (schema 4): its reports become round 0
// of graphs collected once.
TEST_CASE("PostgresStore.MigratesADatabaseFromBeforeRounds") {
  if (Server() == nullptr) return;
  std::string conninfo;
  const ldpgraph::testing::StoreOpener open = FreshStore(*Server(), &conninfo);
  const std::string db = DatabaseOf(conninfo);
  // The tables migration 4 -> 5 reads, as schema 4 left them.
  REQUIRE(Server()->Exec(db, "CREATE TABLE ldpgraph_schema (version integer NOT NULL);"
                             "INSERT INTO ldpgraph_schema VALUES (4);"
                             "CREATE TABLE graphs (graph_id bigint PRIMARY KEY, config_json text NOT NULL,"
                             "  created_unix bigint NOT NULL);"
                             "CREATE TABLE reports (graph_id bigint NOT NULL, user_id bigint NOT NULL,"
                             "  report_id bytea NOT NULL, body bytea NOT NULL, received_unix bigint NOT NULL,"
                             "  PRIMARY KEY (graph_id, user_id));"
                             "INSERT INTO graphs VALUES (7, '{}', 1700000000);"
                             "INSERT INTO reports VALUES (7, 1, '\\x01010101010101010101010101010101', '\\x0d0e', 1);")
              .ok());
  auto store = open(nullptr);
  REQUIRE_MESSAGE(store.ok(), store.status().ToString());
  CHECK(Server()->Scalar(db, "SELECT version FROM ldpgraph_schema").value() == std::to_string(kPostgresSchemaVersion));
  auto rounds = (*store)->Rounds();
  REQUIRE(rounds.ok());
  CHECK(rounds->empty());
  std::vector<ReportRecord> seen;
  REQUIRE((*store)->ForEachReport(7, [&](const ReportRecord& r) { seen.push_back(r); }).ok());
  REQUIRE(seen.size() == 1);
  CHECK(seen[0].user_id == 1);
  CHECK(seen[0].round == 0);
  CHECK(seen[0].bytes == std::vector<std::uint8_t>{0x0d, 0x0e});
  ReportRecord again = seen[0];
  again.graph_id = 7;
  CHECK(*ldpgraph::testing::InsertSync(**store, again) == InsertOutcome::kDuplicate);
  again.round = 1;
  CHECK(*ldpgraph::testing::InsertSync(**store, again) == InsertOutcome::kWrongRound);
}

TEST_CASE("PostgresDocuments.KeepTheDocumentContractAcrossDaemons") {
  if (Server() == nullptr) return;
  std::string conninfo;
  const ldpgraph::testing::StoreOpener open = FreshStore(*Server(), &conninfo);
  auto store = open(nullptr);  // makes the schema
  REQUIRE(store.ok());
  const std::string password = Server()->password();
  ldpgraph::testing::CheckDocumentContract(
      [&] { return OpenPostgresDocuments(conninfo, password, "model", "model version"); });
  // Two daemons adding at once never get the same number; another kind is apart.
  auto a = OpenPostgresDocuments(conninfo, password, "model", "model version");
  auto b = OpenPostgresDocuments(conninfo, password, "model", "model version");
  auto graphs = OpenPostgresDocuments(conninfo, password, "held_graph", "held graph");
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  REQUIRE(graphs.ok());
  std::vector<std::uint64_t> ids_a, ids_b;
  std::thread ta([&] {
    for (int i = 0; i < 50; ++i) ids_a.push_back((*a)->AddNext({1}, "{}").value());
  });
  std::thread tb([&] {
    for (int i = 0; i < 50; ++i) ids_b.push_back((*b)->AddNext({2}, "{}").value());
  });
  ta.join();
  tb.join();
  std::set<std::uint64_t> all(ids_a.begin(), ids_a.end());
  all.insert(ids_b.begin(), ids_b.end());
  CHECK(all.size() == 100);
  CHECK((*graphs)->List()->empty());
  CHECK((*b)->List()->size() == (*a)->List()->size());
}

TEST_CASE("PostgresStore.ThreeStoresRacingForTheSameUsersStoreEachOnce") {
  if (Server() == nullptr) return;
  const ldpgraph::testing::StoreOpener open = FreshStore(*Server());
  // Three stores open together on the empty database: the schema is made once.
  std::vector<std::unique_ptr<Store>> stores(3);
  std::vector<std::thread> openers;
  std::atomic<int> opened{0};
  for (auto& s : stores) {
    openers.emplace_back([&] {
      Result<std::unique_ptr<Store>> r = open(nullptr);
      if (r.ok()) {
        s = std::move(r).value();
        ++opened;
      }
    });
  }
  for (auto& t : openers) t.join();
  REQUIRE(opened.load() == 3);
  // Each store receives every user's report (devices retrying through
  // another daemon): one stores it, the others answer duplicate.
  constexpr std::uint32_t kUsers = 3000;
  std::atomic<std::uint32_t> stored{0}, duplicates{0}, other{0};
  std::vector<std::thread> senders;
  for (auto& s : stores) {
    senders.emplace_back([&, store = s.get()] {
      for (std::uint32_t u = 0; u < kUsers; ++u) {
        store->Insert(ldpgraph::testing::ContractRecord(u, static_cast<std::uint8_t>(u)),
                      [&](Result<InsertOutcome> r) {
                        if (!r.ok()) {
                          ++other;
                        } else if (*r == InsertOutcome::kStored) {
                          ++stored;
                        } else if (*r == InsertOutcome::kDuplicate) {
                          ++duplicates;
                        } else {
                          ++other;
                        }
                      });
      }
    });
  }
  for (auto& t : senders) t.join();
  for (auto& s : stores) s->Close();
  CHECK(stored.load() == kUsers);
  CHECK(duplicates.load() == 2 * kUsers);
  CHECK(other.load() == 0);
  auto count = open(nullptr);
  REQUIRE(count.ok());
  auto counts = (*count)->CountReports();
  REQUIRE(counts.ok());
  REQUIRE(counts->size() == 1);
  CHECK((*counts)[0].reports == kUsers);
}

TEST_CASE("PostgresStore.ADroppedConnectionCostsOneBatchNotTheStore") {
  if (Server() == nullptr) return;
  std::string conninfo;
  const ldpgraph::testing::StoreOpener open = FreshStore(*Server(), &conninfo);
  auto store = open(nullptr);
  REQUIRE(store.ok());
  REQUIRE(*ldpgraph::testing::InsertSync(**store, ldpgraph::testing::ContractRecord(1, 1)) == InsertOutcome::kStored);
  // The server ends every session of the database (as a restart or a
  // network failure would).
  const std::string db = DatabaseOf(conninfo);
  REQUIRE(Server()->Exec("postgres", "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '" + db +
                                         "' AND pid <> pg_backend_pid()").ok());
  Result<InsertOutcome> lost = ldpgraph::testing::InsertSync(**store, ldpgraph::testing::ContractRecord(2, 2));
  if (!lost.ok()) CHECK(lost.status().code() == StatusCode::kUnavailable);  // the device retries
  // The next batch reconnects; the retried report is stored once.
  Result<InsertOutcome> retried = ldpgraph::testing::InsertSync(**store, ldpgraph::testing::ContractRecord(2, 2));
  REQUIRE(retried.ok());
  CHECK((*retried == InsertOutcome::kStored || *retried == InsertOutcome::kDuplicate));
  CHECK((*store)->ListGraphs().ok());  // a read on a dropped connection runs again on a fresh one
  auto counts = (*store)->CountReports();
  REQUIRE(counts.ok());
  CHECK((*counts)[0].reports == 2);
}

TEST_CASE("PostgresStore.RefusesANewerSchemaAndAWrongPassword") {
  if (Server() == nullptr) return;
  std::string conninfo;
  const ldpgraph::testing::StoreOpener open = FreshStore(*Server(), &conninfo);
  { REQUIRE(open(nullptr).ok()); }
  const std::string db = DatabaseOf(conninfo);
  CHECK(Server()->Scalar(db, "SELECT version FROM ldpgraph_schema").value() ==
        std::to_string(kPostgresSchemaVersion));
  REQUIRE(Server()->Exec(db, "UPDATE ldpgraph_schema SET version = 99").ok());
  Result<std::unique_ptr<Store>> future = open(nullptr);
  REQUIRE_FALSE(future.ok());
  CHECK(future.status().code() == StatusCode::kDataLoss);
  CHECK(future.status().message().find("schema version 99") != std::string::npos);

  PostgresStoreOptions o;
  o.conninfo = conninfo;
  o.password = "not-the-password-5150";
  Result<std::unique_ptr<Store>> denied = OpenPostgresReportStore(o);
  REQUIRE_FALSE(denied.ok());
  CHECK(denied.status().code() == StatusCode::kUnavailable);
  CHECK(denied.status().message().find("password authentication failed") != std::string::npos);
  CHECK(denied.status().message().find("not-the-password-5150") == std::string::npos);
  o.conninfo.clear();
  CHECK(OpenPostgresReportStore(o).status().code() == StatusCode::kInvalidArgument);
  o.conninfo = conninfo;
  o.pool_size = 0;
  CHECK(OpenPostgresReportStore(o).status().code() == StatusCode::kInvalidArgument);
}

TEST_CASE("PostgresStore.SpeaksTlsToTheDatabaseAndChecksItsCertificate") {
  Result<std::unique_ptr<ScratchPostgres>> server = ScratchPostgres::Start(/*tls=*/true);
  if (!server.ok()) {
    MESSAGE("skipped: " << server.status().ToString());
    return;
  }
  REQUIRE((*server)->CreateDatabase("tls").ok());
  PostgresStoreOptions o;
  o.conninfo = (*server)->Conninfo("tls") + " sslmode=verify-full sslrootcert=" + (*server)->ca_file();
  o.password = (*server)->password();
  Result<std::unique_ptr<Store>> store = OpenPostgresReportStore(o);
  REQUIRE_MESSAGE(store.ok(), store.status().ToString());
  CHECK(*ldpgraph::testing::InsertSync(**store, ldpgraph::testing::ContractRecord(1, 1)) == InsertOutcome::kStored);
  // The session really is encrypted.
  Result<pg::Connection> c = pg::Connection::Open(o.conninfo, o.password);
  REQUIRE(c.ok());
  Result<pg::QueryResult> ssl =
      c->Query("SELECT ssl::text FROM pg_stat_ssl WHERE pid = pg_backend_pid()", pg::Params(), pg::Format::kText);
  REQUIRE(ssl.ok());
  CHECK(ssl->Text(0, 0) == "true");
  // A server whose certificate another CA signed is refused.
  char pattern[] = "/tmp/ldpgraph_other_ca_XXXXXX";
  REQUIRE(::mkdtemp(pattern) != nullptr);
  Result<PkiFiles> other = WriteTestPki(pattern, "another CA");
  REQUIRE(other.ok());
  PostgresStoreOptions wrong = o;
  wrong.conninfo = (*server)->Conninfo("tls") + " sslmode=verify-full sslrootcert=" + other->ca_certificate;
  Result<std::unique_ptr<Store>> refused = OpenPostgresReportStore(wrong);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().code() == StatusCode::kUnavailable);
  CHECK(refused.status().message().find("certificate verify failed") != std::string::npos);
  std::system((std::string("rm -rf '") + pattern + "'").c_str());
}

// Issue 66, defect 2: after a restart every pooled connection is dead, and
// the first write on each failed ("server closed the connection
// unexpectedly") minutes later: a model was thrown away. A lease now reads
// what the restart left on an idle connection and opens a fresh one.
TEST_CASE("PostgresStore.TheFirstWritesAfterARestartGoThrough") {
  if (Server() == nullptr) return;
  std::string conninfo;
  const ldpgraph::testing::StoreOpener open = FreshStore(*Server(), &conninfo);
  auto store = open(nullptr);
  REQUIRE(store.ok());
  auto models = OpenPostgresDocuments(conninfo, Server()->password(), "model", "model version");
  REQUIRE(models.ok());
  REQUIRE((*store)->CreateGraph({1, "{}", 0}).ok());
  REQUIRE((*models)->AddNext({1, 2, 3}, "{}").ok());
  REQUIRE(*ldpgraph::testing::InsertSync(**store, ldpgraph::testing::ContractRecord(1, 1)) == InsertOutcome::kStored);
  for (int fault = 0; fault < 2; ++fault) {
    INFO((fault == 0 ? "fast restart" : "crash"));
    REQUIRE((fault == 0 ? Server()->Restart() : Server()->CrashAndRestart()).ok());
    Result<std::uint64_t> version = (*models)->AddNext({4, 5, 6}, "{}");
    CHECK_MESSAGE(version.ok(), version.status().ToString());
    Result<InsertOutcome> report =
        ldpgraph::testing::InsertSync(**store, ldpgraph::testing::ContractRecord(1, 10 + fault));
    CHECK_MESSAGE(report.ok(), report.status().ToString());
    Status label = (*store)->SetGraphLabel(1, fault);
    CHECK_MESSAGE(label.ok(), label.ToString());
    Result<std::uint64_t> job = (*store)->AddSharedJob("{}", "{}");
    CHECK_MESSAGE(job.ok(), job.status().ToString());
    CHECK((*store)->CheckReady().ok());
  }
}

// Issue 66, defect 1: the lead's epoch fences a leader's writes. After a
// restart ends the old leader's session, a new leader raises the epoch,
// and whatever the old one still sends is refused; a job ends once.
TEST_CASE("PostgresStore.TheLeaseEpochFencesADeposedLeader") {
  if (Server() == nullptr) return;
  const ldpgraph::testing::StoreOpener open = FreshStore(*Server());
  auto a = open(nullptr), b = open(nullptr);
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  Result<std::optional<std::uint64_t>> lead_a = (*a)->HoldLead();
  REQUIRE(lead_a.ok());
  REQUIRE(lead_a->has_value());
  const std::uint64_t old_epoch = **lead_a;
  CHECK(*(*a)->HoldLead() == old_epoch);    // confirmed, not taken again
  CHECK_FALSE((*b)->HoldLead()->has_value());  // one leader
  const std::uint64_t first = *(*b)->AddSharedJob("{\"n\":1}", "{}");
  const std::uint64_t second = *(*b)->AddSharedJob("{\"n\":2}", "{}");
  Result<std::optional<ClaimedJob>> claimed = (*a)->ClaimNextJob(old_epoch);
  REQUIRE(claimed.ok());
  REQUIRE(claimed->has_value());
  CHECK((*claimed)->job_id == first);
  CHECK((*a)->UpdateLedJob(first, "{\"epoch\":1}", old_epoch, false).ok());

  REQUIRE(Server()->Restart().ok());  // a's session, and its lock, are gone
  Result<std::optional<std::uint64_t>> lead_b = (*b)->HoldLead();
  REQUIRE(lead_b.ok());
  REQUIRE(lead_b->has_value());
  const std::uint64_t new_epoch = **lead_b;
  CHECK(new_epoch > old_epoch);
  // The deposed leader is refused everything, and learns it has lost.
  Status late = (*a)->UpdateLedJob(first, "{\"late\":true}", old_epoch, true);
  CHECK(late.code() == StatusCode::kFailedPrecondition);
  CHECK(late.message().find("has passed to another daemon") != std::string::npos);
  CHECK((*a)->ClaimNextJob(old_epoch).status().code() == StatusCode::kFailedPrecondition);
  Result<std::optional<std::uint64_t>> lead_a_again = (*a)->HoldLead();
  CHECK((!lead_a_again.ok() || !lead_a_again->has_value()));
  CHECK_FALSE(*(*a)->HoldLead() == std::optional<std::uint64_t>(old_epoch));
  // The new leader ends the job once: a second end is refused.
  REQUIRE((*b)->ClaimedJobs()->size() == 1);
  CHECK((*b)->UpdateLedJob(first, "{\"interrupted\":true}", new_epoch, true).ok());
  CHECK((*b)->UpdateLedJob(first, "{\"again\":true}", new_epoch, true).message().find("already ended") !=
        std::string::npos);
  CHECK((*b)->ClaimedJobs()->empty());
  CHECK((*(*b)->GetJob(first))->status_json == "{\"interrupted\":true}");
  // A queued job cancelled ends at once and is never claimed; cancelling an ended job is refused.
  Result<bool> cancelled = (*a)->RequestJobCancel(second, "{\"cancelled\":true}");
  REQUIRE(cancelled.ok());
  CHECK(*cancelled);
  CHECK_FALSE((*b)->ClaimNextJob(new_epoch)->has_value());
  CHECK((*a)->RequestJobCancel(second, "{}").status().code() == StatusCode::kFailedPrecondition);
  CHECK((*(*b)->GetJob(second))->status_json == "{\"cancelled\":true}");
}
