#include "store/sqlite_report_store.h"

#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <pthread.h>
#include <thread>
#include <utility>

#include "store/commit_queue.h"
#include "store/rounds_sql.h"
#include "store/sqlite_db.h"
#include "util/unix_clock.h"

namespace ldpgraph {

namespace {

constexpr std::int64_t kApplicationId = 0x4C445047;  // "LDPG": marks the file as ours

// Migration k takes a store from schema version k to k + 1. Append only.
const char* const kMigrations[] = {
    // 0 -> 1: graphs and their reports, one report per (graph, user).
    "CREATE TABLE graphs ("
    "  graph_id INTEGER PRIMARY KEY,"    // the uint64 id, bit-cast to int64
    "  config_json TEXT NOT NULL,"
    "  created_unix INTEGER NOT NULL);"
    "CREATE TABLE reports ("
    "  graph_id INTEGER NOT NULL,"
    "  user_id INTEGER NOT NULL,"
    "  report_id BLOB NOT NULL,"
    "  body BLOB NOT NULL,"
    "  received_unix INTEGER NOT NULL,"
    "  PRIMARY KEY (graph_id, user_id)) WITHOUT ROWID;",
    // 1 -> 2: the class an admin attached to a whole graph (graph classification).
    "CREATE TABLE graph_labels ("
    "  graph_id INTEGER PRIMARY KEY REFERENCES graphs (graph_id),"
    "  label INTEGER NOT NULL,"
    "  set_unix INTEGER NOT NULL);",
    // 2 -> 3: how each graph's directed noisy rows are made undirected ("none", "or", "and").
    "CREATE TABLE graph_symmetrisation ("
    "  graph_id INTEGER PRIMARY KEY REFERENCES graphs (graph_id),"
    "  rule TEXT NOT NULL,"
    "  set_unix INTEGER NOT NULL);",
    // 3 -> 4: training jobs, so that none vanishes in a crash and no id
    // serves twice (AUTOINCREMENT: never an id used before, even one deleted).
    "CREATE TABLE jobs ("
    "  job_id INTEGER PRIMARY KEY AUTOINCREMENT,"
    "  status_json TEXT NOT NULL,"
    "  created_unix INTEGER NOT NULL,"
    "  updated_unix INTEGER NOT NULL);",
    // 4 -> 5 (issue 68): graphs collected in rounds. A report is kept per
    // (graph, user, round); the reports stored before are round 0 of graphs
    // collected once. A graph in rounds has its open round in graph_rounds.
    "CREATE TABLE reports_by_round ("
    "  graph_id INTEGER NOT NULL,"
    "  user_id INTEGER NOT NULL,"
    "  round INTEGER NOT NULL,"
    "  report_id BLOB NOT NULL,"
    "  body BLOB NOT NULL,"
    "  received_unix INTEGER NOT NULL,"
    "  PRIMARY KEY (graph_id, user_id, round)) WITHOUT ROWID;"
    "INSERT INTO reports_by_round SELECT graph_id, user_id, 0, report_id, body, received_unix FROM reports;"
    "DROP TABLE reports;"
    "ALTER TABLE reports_by_round RENAME TO reports;"
    "CREATE TABLE graph_rounds ("
    "  graph_id INTEGER PRIMARY KEY REFERENCES graphs (graph_id),"
    "  current_round INTEGER NOT NULL,"
    "  opened_unix INTEGER NOT NULL,"
    "  history INTEGER NOT NULL);",
};
static_assert(sizeof(kMigrations) / sizeof(kMigrations[0]) == kStoreSchemaVersion,
              "one migration per schema version");

std::int64_t ToSql(std::uint64_t id) { return static_cast<std::int64_t>(id); }
std::uint64_t FromSql(std::int64_t id) { return static_cast<std::uint64_t>(id); }

Result<std::int64_t> PragmaInt(sqlite::Db& db, const char* pragma) {
  auto stmt = sqlite::Statement::Prepare(db, pragma);
  if (!stmt.ok()) return stmt.status();
  auto row = stmt->Step();
  if (!row.ok()) return row.status();
  return *row ? stmt->ColumnInt(0) : 0;
}

// Brings the file to kStoreSchemaVersion, or refuses a file that is not ours.
Status Migrate(sqlite::Db& db, const std::string& path) {
  auto app = PragmaInt(db, "PRAGMA application_id");
  if (!app.ok()) return Status::DataLoss(path + " is not an ldpgraph store: " + app.status().message());
  auto version = PragmaInt(db, "PRAGMA user_version");
  if (!version.ok()) return version.status();
  auto tables = PragmaInt(db, "SELECT count(*) FROM sqlite_master");
  if (!tables.ok()) return tables.status();
  const bool fresh = *app == 0 && *version == 0 && *tables == 0;
  if (!fresh && *app != kApplicationId) {
    return Status::DataLoss(path + " is an SQLite file but not an ldpgraph store");
  }
  if (*version > kStoreSchemaVersion) {
    return Status::DataLoss(path + " has schema version " + std::to_string(*version) +
                            "; this build reads up to " + std::to_string(kStoreSchemaVersion));
  }
  for (std::int64_t v = *version; v < kStoreSchemaVersion; ++v) {
    LDPGRAPH_RETURN_IF_ERROR(db.Exec("BEGIN IMMEDIATE"));
    Status s = db.Exec(kMigrations[v]);
    if (s.ok()) s = db.Exec("PRAGMA application_id = " + std::to_string(kApplicationId));
    if (s.ok()) s = db.Exec("PRAGMA user_version = " + std::to_string(v + 1));
    if (s.ok()) s = db.Exec("COMMIT");
    if (!s.ok()) {
      (void)db.Exec("ROLLBACK");
      return s;
    }
  }
  return Status::Ok();
}

Status Configure(sqlite::Db& db) {
  // WAL: readers never block the writer; FULL: COMMIT returns after fsync.
  return db.Exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;");
}

class SqliteReportStore final : public Store {
 public:
  SqliteReportStore(SqliteStoreOptions options, sqlite::Db write_db, sqlite::Db admin_db)
      : options_(std::move(options)), write_db_(std::move(write_db)), admin_db_(std::move(admin_db)) {}

  ~SqliteReportStore() override { Close(); }

  Status Prepare() {
    auto find = sqlite::Statement::Prepare(
        write_db_, "SELECT report_id, body FROM reports WHERE graph_id = ?1 AND user_id = ?2 AND round = ?3");
    if (!find.ok()) return find.status();
    auto insert = sqlite::Statement::Prepare(
        write_db_,
        "INSERT OR IGNORE INTO reports (graph_id, user_id, round, report_id, body, received_unix) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
    if (!insert.ok()) return insert.status();
    auto open_round = sqlite::Statement::Prepare(
        write_db_, "SELECT coalesce((SELECT current_round FROM graph_rounds WHERE graph_id = ?1), 0)");
    if (!open_round.ok()) return open_round.status();
    find_ = std::move(*find);
    insert_ = std::move(*insert);
    open_round_ = std::move(*open_round);
    writer_ = std::thread([this] {
      pthread_setname_np(pthread_self(), "ldpgraphd-store");
      WriterLoop();
    });
    return Status::Ok();
  }

  void Insert(ReportRecord record, InsertDone done) override { queue_.Push(std::move(record), std::move(done)); }

  Status CreateGraph(const StoredGraph& graph) override {
    const std::int64_t created = graph.created_unix ? graph.created_unix : UnixSeconds();
    return WriterTransaction([&]() -> Status {
      auto stmt = sqlite::Statement::Prepare(
          write_db_, "INSERT INTO graphs (graph_id, config_json, created_unix) VALUES (?1, ?2, ?3) "
                     "ON CONFLICT (graph_id) DO NOTHING");
      if (!stmt.ok()) return stmt.status();
      stmt->BindInt(1, ToSql(graph.graph_id));
      stmt->BindText(2, graph.config_json);
      stmt->BindInt(3, created);
      auto done = stmt->Step();
      if (!done.ok()) return done.status();
      if (write_db_.Changes() == 0) {
        return Status::FailedPrecondition("graph " + std::to_string(graph.graph_id) + " already exists");
      }
      if (graph.history_rounds == 0) return Status::Ok();
      auto rounds = sqlite::Statement::Prepare(
          write_db_, "INSERT INTO graph_rounds (graph_id, current_round, opened_unix, history) VALUES (?1, 1, ?2, ?3)");
      if (!rounds.ok()) return rounds.status();
      rounds->BindInt(1, ToSql(graph.graph_id));
      rounds->BindInt(2, created);
      rounds->BindInt(3, graph.history_rounds);
      return rounds->Step().status();
    });
  }

  Result<std::map<std::uint64_t, RoundState>> Rounds() override {
    std::map<std::uint64_t, RoundState> rounds;
    Status s = ForEachRow(rounds_sql::kSelectRoundState, [&](sqlite::Statement& row) { rounds[FromSql(row.ColumnInt(0))] = RoundOf(row); });
    if (!s.ok()) return s;
    return rounds;
  }

  Result<RoundState> OpenRound(std::uint64_t graph_id, std::uint32_t open) override {
    RoundState opened;
    Status s = WriterTransaction([&]() -> Status {
      auto current = sqlite::Statement::Prepare(
          write_db_, (std::string(rounds_sql::kSelectRoundState) + " WHERE graph_id = ?1").c_str());
      if (!current.ok()) return current.status();
      current->BindInt(1, ToSql(graph_id));
      auto row = current->Step();
      if (!row.ok()) return row.status();
      if (!*row) return Status::FailedPrecondition("graph " + std::to_string(graph_id) + " is not collected in rounds");
      opened = RoundOf(*current);
      LDPGRAPH_RETURN_IF_ERROR(CheckRoundOpening(graph_id, opened, open));
      ++opened.current;
      opened.opened_unix = UnixSeconds();
      auto update = sqlite::Statement::Prepare(
          write_db_, "UPDATE graph_rounds SET current_round = ?2, opened_unix = ?3 WHERE graph_id = ?1");
      if (!update.ok()) return update.status();
      update->BindInt(1, ToSql(graph_id));
      update->BindInt(2, opened.current);
      update->BindInt(3, opened.opened_unix);
      LDPGRAPH_RETURN_IF_ERROR(update->Step().status());
      auto prune = sqlite::Statement::Prepare(write_db_, rounds_sql::PruneHistory("?1", "?2").c_str());
      if (!prune.ok()) return prune.status();
      prune->BindInt(1, ToSql(graph_id));
      prune->BindInt(2, opened.OldestKept());
      return prune->Step().status();
    });
    if (!s.ok()) return s;
    return opened;
  }

  Result<std::vector<StoredGraph>> ListGraphs() override {
    std::lock_guard<std::mutex> lock(admin_mu_);
    auto stmt = sqlite::Statement::Prepare(
        admin_db_, "SELECT graph_id, config_json, created_unix FROM graphs ORDER BY graph_id");
    if (!stmt.ok()) return stmt.status();
    std::vector<StoredGraph> graphs;
    for (;;) {
      auto row = stmt->Step();
      if (!row.ok()) return row.status();
      if (!*row) break;
      graphs.push_back({FromSql(stmt->ColumnInt(0)), stmt->ColumnText(1), stmt->ColumnInt(2)});
    }
    return graphs;
  }

  Status SetGraphLabel(std::uint64_t graph_id, std::uint32_t label) override {
    return SetForGraph(graph_id, "graph_labels", "label", [&](sqlite::Statement& s) { s.BindInt(2, label); });
  }

  Result<std::map<std::uint64_t, std::uint32_t>> GraphLabels() override {
    std::map<std::uint64_t, std::uint32_t> labels;
    Status s = ForEachRow("SELECT graph_id, label FROM graph_labels", [&](sqlite::Statement& row) {
      labels[FromSql(row.ColumnInt(0))] = static_cast<std::uint32_t>(row.ColumnInt(1));
    });
    if (!s.ok()) return s;
    return labels;
  }

  Status SetGraphSymmetrisation(std::uint64_t graph_id, const std::string& rule) override {
    return SetForGraph(graph_id, "graph_symmetrisation", "rule", [&](sqlite::Statement& s) { s.BindText(2, rule); });
  }

  Result<std::map<std::uint64_t, std::string>> GraphSymmetrisations() override {
    std::map<std::uint64_t, std::string> rules;
    Status s = ForEachRow("SELECT graph_id, rule FROM graph_symmetrisation", [&](sqlite::Statement& row) {
      rules[FromSql(row.ColumnInt(0))] = row.ColumnText(1);
    });
    if (!s.ok()) return s;
    return rules;
  }

  Result<std::uint64_t> AddJob(const std::string& status_json) override {
    std::lock_guard<std::mutex> lock(admin_mu_);
    auto stmt = sqlite::Statement::Prepare(
        admin_db_, "INSERT INTO jobs (status_json, created_unix, updated_unix) VALUES (?1, ?2, ?2)");
    if (!stmt.ok()) return stmt.status();
    stmt->BindText(1, status_json);
    stmt->BindInt(2, UnixSeconds());
    auto done = stmt->Step();
    if (!done.ok()) return done.status();
    return FromSql(admin_db_.LastInsertRowId());
  }

  Status UpdateJob(std::uint64_t job_id, const std::string& status_json) override {
    std::lock_guard<std::mutex> lock(admin_mu_);
    auto stmt = sqlite::Statement::Prepare(admin_db_,
                                           "UPDATE jobs SET status_json = ?2, updated_unix = ?3 WHERE job_id = ?1");
    if (!stmt.ok()) return stmt.status();
    stmt->BindInt(1, ToSql(job_id));
    stmt->BindText(2, status_json);
    stmt->BindInt(3, UnixSeconds());
    auto done = stmt->Step();
    if (!done.ok()) return done.status();
    if (admin_db_.Changes() == 0) return Status::FailedPrecondition("no job " + std::to_string(job_id));
    return Status::Ok();
  }

  Result<std::vector<StoredJob>> ListJobs() override {
    std::vector<StoredJob> jobs;
    Status s = ForEachRow("SELECT job_id, status_json FROM jobs ORDER BY job_id", [&](sqlite::Statement& row) {
      jobs.push_back({FromSql(row.ColumnInt(0)), row.ColumnText(1)});
    });
    if (!s.ok()) return s;
    return jobs;
  }

  Result<std::vector<GraphReportCount>> CountReports() override {
    std::lock_guard<std::mutex> lock(admin_mu_);
    auto stmt = sqlite::Statement::Prepare(
        admin_db_, "SELECT graph_id, count(DISTINCT user_id) FROM reports GROUP BY graph_id ORDER BY graph_id");
    if (!stmt.ok()) return stmt.status();
    std::vector<GraphReportCount> counts;
    for (;;) {
      auto row = stmt->Step();
      if (!row.ok()) return row.status();
      if (!*row) break;
      counts.push_back({FromSql(stmt->ColumnInt(0)), static_cast<std::uint64_t>(stmt->ColumnInt(1))});
    }
    return counts;
  }

  Result<std::uint64_t> ReportBytes(std::uint64_t graph_id, std::uint32_t round) override {
    std::lock_guard<std::mutex> lock(admin_mu_);
    // length() of a blob reads its size from the record header, not the blob.
    auto stmt = sqlite::Statement::Prepare(
        admin_db_,
        ("SELECT coalesce(sum(length(body)), 0) FROM reports r " + rounds_sql::NewestUpTo("?1", "?2")).c_str());
    if (!stmt.ok()) return stmt.status();
    stmt->BindInt(1, ToSql(graph_id));
    stmt->BindInt(2, round);
    auto row = stmt->Step();
    if (!row.ok()) return row.status();
    return *row ? static_cast<std::uint64_t>(stmt->ColumnInt(0)) : std::uint64_t{0};
  }

  Status ForEachReport(std::uint64_t graph_id, std::uint32_t round,
                       const std::function<void(const ReportRecord&)>& visit) override {
    std::lock_guard<std::mutex> lock(admin_mu_);
    // One read transaction: the round still kept, and its reports, in one snapshot.
    LDPGRAPH_RETURN_IF_ERROR(admin_db_.Exec("BEGIN"));
    Status s = ReadKeptRound(graph_id, round, visit);
    (void)admin_db_.Exec(s.ok() ? "COMMIT" : "ROLLBACK");
    return s;
  }

  void Close() override {
    queue_.Close();
    std::lock_guard<std::mutex> lock(join_mu_);
    if (writer_.joinable()) writer_.join();
  }

 private:
  Status ReadKeptRound(std::uint64_t graph_id, std::uint32_t round,
                       const std::function<void(const ReportRecord&)>& visit) {
    auto state = sqlite::Statement::Prepare(
        admin_db_, (std::string(rounds_sql::kSelectRoundState) + " WHERE graph_id = ?1").c_str());
    if (!state.ok()) return state.status();
    state->BindInt(1, ToSql(graph_id));
    auto found = state->Step();
    if (!found.ok()) return found.status();
    LDPGRAPH_RETURN_IF_ERROR(
        CheckRoundKept(graph_id, *found ? std::optional<RoundState>(RoundOf(*state)) : std::nullopt, round));
    // The primary key (graph, user, round) orders the rows by user.
    auto stmt = sqlite::Statement::Prepare(
        admin_db_,
        ("SELECT user_id, round, report_id, body FROM reports r " + rounds_sql::NewestUpTo("?1", "?2") +
         " ORDER BY user_id")
            .c_str());
    if (!stmt.ok()) return stmt.status();
    stmt->BindInt(1, ToSql(graph_id));
    stmt->BindInt(2, round);
    ReportRecord record;
    record.graph_id = graph_id;
    for (;;) {
      auto row = stmt->Step();
      if (!row.ok()) return row.status();
      if (!*row) break;
      record.user_id = static_cast<std::uint32_t>(stmt->ColumnInt(0));
      record.round = static_cast<std::uint32_t>(stmt->ColumnInt(1));
      if (stmt->ColumnBytes(2) != record.report_id.size()) {
        return Status::DataLoss("store: report of user " + std::to_string(record.user_id) +
                                " has a report id of the wrong size");
      }
      std::memcpy(record.report_id.data(), stmt->ColumnBlob(2), record.report_id.size());
      const std::uint8_t* body = stmt->ColumnBlob(3);
      record.bytes.assign(body, body + stmt->ColumnBytes(3));
      visit(record);
    }
    return Status::Ok();
  }

  // A row of rounds_sql::kSelectRoundState.
  static RoundState RoundOf(sqlite::Statement& row) {
    RoundState r;
    r.current = static_cast<std::uint32_t>(row.ColumnInt(1));
    r.opened_unix = row.ColumnInt(2);
    r.history = static_cast<std::uint32_t>(row.ColumnInt(3));
    return r;
  }

  // Runs `body` on the writer's connection, between two of its commits: a
  // second connection's BEGIN IMMEDIATE would wait on SQLite's busy
  // handler, which backs off while the writer commits batch after batch,
  // and under steady ingest lost every gap (measured: a round never closed
  // until 3,000 racing reports were all in).
  Status WriterTransaction(const std::function<Status()>& body) {
    std::lock_guard<std::mutex> lock(write_mu_);
    LDPGRAPH_RETURN_IF_ERROR(write_db_.Exec("BEGIN IMMEDIATE"));
    Status s = body();
    if (s.ok()) s = write_db_.Exec("COMMIT");
    if (!s.ok()) (void)write_db_.Exec("ROLLBACK");
    return s;
  }

  // Sets `column` (bound as ?2 by `bind_value`) of graph_id's row in a
  // per-graph admin table, replacing an earlier value. kFailedPrecondition
  // when the graph does not exist.
  Status SetForGraph(std::uint64_t graph_id, const char* table, const char* column,
                     const std::function<void(sqlite::Statement&)>& bind_value) {
    const std::string sql = std::string("INSERT INTO ") + table + " (graph_id, " + column +
                            ", set_unix) SELECT ?1, ?2, ?3 WHERE EXISTS (SELECT 1 FROM graphs WHERE graph_id = ?1) "
                            "ON CONFLICT (graph_id) DO UPDATE SET " + column + " = excluded." + column +
                            ", set_unix = excluded.set_unix";
    std::lock_guard<std::mutex> lock(admin_mu_);
    auto stmt = sqlite::Statement::Prepare(admin_db_, sql.c_str());
    if (!stmt.ok()) return stmt.status();
    stmt->BindInt(1, ToSql(graph_id));
    bind_value(*stmt);
    stmt->BindInt(3, UnixSeconds());
    auto done = stmt->Step();
    if (!done.ok()) return done.status();
    if (admin_db_.Changes() == 0) return Status::FailedPrecondition("no graph " + std::to_string(graph_id));
    return Status::Ok();
  }

  // Runs an admin query and hands each row to `visit`.
  Status ForEachRow(const char* sql, const std::function<void(sqlite::Statement&)>& visit) {
    std::lock_guard<std::mutex> lock(admin_mu_);
    auto stmt = sqlite::Statement::Prepare(admin_db_, sql);
    if (!stmt.ok()) return stmt.status();
    for (;;) {
      auto row = stmt->Step();
      if (!row.ok()) return row.status();
      if (!*row) return Status::Ok();
      visit(*stmt);
    }
  }

  using Pending = CommitQueue::Pending;

  void WriterLoop() {
    queue_.Serve(options_.max_reports_per_commit, [this](const std::vector<Pending>& b) { return Commit(b); },
                 options_.on_commit);
  }

  // One transaction for the whole batch.
  Result<std::vector<InsertOutcome>> Commit(const std::vector<Pending>& batch) {
    std::lock_guard<std::mutex> lock(write_mu_);
    std::vector<InsertOutcome> outcomes;
    outcomes.reserve(batch.size());
    Status s = write_db_.Exec("BEGIN IMMEDIATE");
    const std::int64_t now = UnixSeconds();
    std::map<std::uint64_t, std::uint32_t> open_rounds;  // read once per graph in this transaction
    for (std::size_t i = 0; s.ok() && i < batch.size(); ++i) {
      auto outcome = InsertOne(batch[i].record, now, &open_rounds);
      if (!outcome.ok()) {
        s = outcome.status();
        break;
      }
      outcomes.push_back(*outcome);
    }
    if (s.ok()) s = write_db_.Exec("COMMIT");
    if (!s.ok()) {
      (void)write_db_.Exec("ROLLBACK");
      return s;
    }
    return outcomes;
  }

  // The graph's open round (0 for a graph collected once), read in the
  // insert's transaction: no round opens while it holds the write lock.
  Result<std::uint32_t> OpenRoundOf(std::uint64_t graph_id) {
    open_round_.Reset();
    open_round_.BindInt(1, ToSql(graph_id));
    auto row = open_round_.Step();
    const std::uint32_t round = row.ok() && *row ? static_cast<std::uint32_t>(open_round_.ColumnInt(0)) : 0;
    open_round_.Reset();
    if (!row.ok()) return row.status();
    return round;
  }

  // The common case, a new report, is one statement: INSERT OR IGNORE; only
  // when the (graph, user, round) row exists is it read to tell a duplicate
  // from a conflict. A report of a round that is not open is stored only if
  // it was stored before (a retry after its round closed is a duplicate).
  Result<InsertOutcome> InsertOne(const ReportRecord& r, std::int64_t now,
                                  std::map<std::uint64_t, std::uint32_t>* open_rounds) {
    auto open = open_rounds->find(r.graph_id);
    if (open == open_rounds->end()) {
      Result<std::uint32_t> read = OpenRoundOf(r.graph_id);
      if (!read.ok()) return read.status();
      open = open_rounds->emplace(r.graph_id, *read).first;
    }
    const bool wrong_round = r.round != open->second;
    insert_.Reset();
    if (!wrong_round) {
      insert_.BindInt(1, ToSql(r.graph_id));
      insert_.BindInt(2, r.user_id);
      insert_.BindInt(3, r.round);
      insert_.BindBlob(4, r.report_id.data(), r.report_id.size());
      insert_.BindBlob(5, r.bytes.data(), r.bytes.size());
      insert_.BindInt(6, now);
      auto done = insert_.Step();
      insert_.Reset();
      if (!done.ok()) return done.status();
      if (write_db_.Changes() == 1) return InsertOutcome::kStored;
    }
    find_.Reset();
    find_.BindInt(1, ToSql(r.graph_id));
    find_.BindInt(2, r.user_id);
    find_.BindInt(3, r.round);
    auto row = find_.Step();
    if (!row.ok()) return row.status();
    if (!*row) {
      find_.Reset();
      if (wrong_round) return InsertOutcome::kWrongRound;
      return Status::Internal("store: a report neither inserted nor found");
    }
    const bool same_id = find_.ColumnBytes(0) == r.report_id.size() &&
                         std::memcmp(find_.ColumnBlob(0), r.report_id.data(), r.report_id.size()) == 0;
    const bool same_bytes = find_.ColumnBytes(1) == r.bytes.size() &&
                            std::memcmp(find_.ColumnBlob(1), r.bytes.data(), r.bytes.size()) == 0;
    find_.Reset();
    return same_id && same_bytes ? InsertOutcome::kDuplicate : InsertOutcome::kConflict;
  }

  SqliteStoreOptions options_;
  sqlite::Db write_db_;  // the writer thread's, and graph creation's and round opening's under write_mu_
  std::mutex write_mu_;
  sqlite::Db admin_db_;  // graphs and reads, under admin_mu_
  std::mutex admin_mu_;
  sqlite::Statement find_, insert_, open_round_;

  // Under load (the last commit was shared by 8 or more), wait up to 0.3 ms
  // for 32: measured, 16-19 -> 30 reports per commit and about 7% less
  // daemon CPU per report; an idle store never waits.
  CommitQueue queue_{8, 32, std::chrono::microseconds(300)};
  std::mutex join_mu_;
  std::thread writer_;
};

}  // namespace

Result<std::unique_ptr<Store>> OpenSqliteReportStore(const SqliteStoreOptions& options) {
  if (options.path.empty()) return Status::InvalidArgument("store path is empty");
  if (options.max_reports_per_commit == 0) return Status::InvalidArgument("max_reports_per_commit must be positive");
  auto write_db = sqlite::Db::Open(options.path);
  if (!write_db.ok()) return write_db.status();
  LDPGRAPH_RETURN_IF_ERROR(Migrate(*write_db, options.path));
  LDPGRAPH_RETURN_IF_ERROR(Configure(*write_db));
  auto admin_db = sqlite::Db::Open(options.path);
  if (!admin_db.ok()) return admin_db.status();
  LDPGRAPH_RETURN_IF_ERROR(Configure(*admin_db));
  auto store = std::make_unique<SqliteReportStore>(options, std::move(*write_db), std::move(*admin_db));
  LDPGRAPH_RETURN_IF_ERROR(store->Prepare());
  return std::unique_ptr<Store>(std::move(store));
}

}  // namespace ldpgraph
