#include "store/postgres_report_store.h"

#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <pthread.h>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "store/commit_queue.h"
#include "store/pg_db.h"
#include "store/pg_pool.h"
#include "store/postgres_schema.h"
#include "store/rounds_sql.h"
#include "util/unix_clock.h"

namespace ldpgraph {
namespace {

// "LDPL": the training lead's advisory lock, held by the leader's own
// connection for as long as it leads.
constexpr std::int64_t kLeadLock = 0x4C44504C;

std::int64_t ToSql(std::uint64_t id) { return static_cast<std::int64_t>(id); }
std::uint64_t FromSql(std::int64_t id) { return static_cast<std::uint64_t>(id); }


class PostgresReportStore final : public Store {
 public:
  PostgresReportStore(PostgresStoreOptions options, pg::Connection writer, std::unique_ptr<pg::Pool> pool)
      : options_(std::move(options)), writer_db_(std::move(writer)), pool_(std::move(pool)) {
    writer_ = std::thread([this] {
      pthread_setname_np(pthread_self(), "ldpgraphd-pgstore");
      WriterLoop();
    });
  }

  ~PostgresReportStore() override { Close(); }

  void Insert(ReportRecord record, InsertDone done) override { queue_.Push(std::move(record), std::move(done)); }

  Status CreateGraph(const StoredGraph& graph) override {
    const std::int64_t created = graph.created_unix ? graph.created_unix : UnixSeconds();
    return pool_->Run([&](pg::Connection& c) -> Status {
      return InTransaction(c, [&]() -> Status {
        Result<pg::QueryResult> r = c.Query(
            "INSERT INTO graphs (graph_id, config_json, created_unix) VALUES ($1, $2, $3) "
            "ON CONFLICT (graph_id) DO NOTHING",
            pg::Params().Int8(ToSql(graph.graph_id)).Text(graph.config_json).Int8(created));
        if (!r.ok()) return r.status();
        if (r->Affected() == 0) {
          return Status::FailedPrecondition("graph " + std::to_string(graph.graph_id) + " already exists");
        }
        if (graph.history_rounds == 0) return Status::Ok();
        return c.Query("INSERT INTO graph_rounds (graph_id, current_round, opened_unix, history) VALUES ($1, 1, $2, $3)",
                       pg::Params().Int8(ToSql(graph.graph_id)).Int8(created).Int8(graph.history_rounds))
            .status();
      });
    });
  }

  Result<std::map<std::uint64_t, RoundState>> Rounds() override {
    std::map<std::uint64_t, RoundState> rounds;
    Status s = Select(rounds_sql::kSelectRoundState, pg::Params(),
                      [&](const pg::QueryResult& r, int i) { rounds[FromSql(r.Int8(i, 0))] = RoundOf(r, i); });
    if (!s.ok()) return s;
    return rounds;
  }

  Result<RoundState> OpenRound(std::uint64_t graph_id, std::uint32_t open) override {
    RoundState opened;
    Status s = pool_->Run([&](pg::Connection& c) -> Status {
      return InTransaction(c, [&]() -> Status {
        // FOR UPDATE: waits for the inserts that read the open round (FOR
        // SHARE) to commit, and makes those that come later read the next.
        Result<pg::QueryResult> r = c.Query(std::string(rounds_sql::kSelectRoundState) + " WHERE graph_id = $1 FOR UPDATE",
                                            pg::Params().Int8(ToSql(graph_id)));
        if (!r.ok()) return r.status();
        if (r->rows() == 0) {
          return Status::FailedPrecondition("graph " + std::to_string(graph_id) + " is not collected in rounds");
        }
        opened = RoundOf(*r, 0);
        LDPGRAPH_RETURN_IF_ERROR(CheckRoundOpening(graph_id, opened, open));
        ++opened.current;
        opened.opened_unix = UnixSeconds();
        LDPGRAPH_RETURN_IF_ERROR(
            c.Query("UPDATE graph_rounds SET current_round = $2, opened_unix = $3 WHERE graph_id = $1",
                    pg::Params().Int8(ToSql(graph_id)).Int8(opened.current).Int8(opened.opened_unix))
                .status());
        return c.Query(rounds_sql::PruneHistory("$1", "$2"), pg::Params().Int8(ToSql(graph_id)).Int8(opened.OldestKept())).status();
      });
    });
    if (!s.ok()) return s;
    return opened;
  }

  Result<std::vector<StoredGraph>> ListGraphs() override {
    std::vector<StoredGraph> graphs;
    Status s = Select("SELECT graph_id, config_json, created_unix FROM graphs ORDER BY graph_id", pg::Params(),
                      [&](const pg::QueryResult& r, int i) {
                        graphs.push_back({FromSql(r.Int8(i, 0)), r.Text(i, 1), r.Int8(i, 2)});
                      });
    if (!s.ok()) return s;
    return graphs;
  }

  Result<std::vector<GraphReportCount>> CountReports() override {
    std::vector<GraphReportCount> counts;
    Status s = Select("SELECT graph_id, count(DISTINCT user_id) FROM reports GROUP BY graph_id ORDER BY graph_id",
                      pg::Params(),
                      [&](const pg::QueryResult& r, int i) {
                        counts.push_back({FromSql(r.Int8(i, 0)), static_cast<std::uint64_t>(r.Int8(i, 1))});
                      });
    if (!s.ok()) return s;
    return counts;
  }

  Result<std::uint64_t> ReportBytes(std::uint64_t graph_id, std::uint32_t round) override {
    std::uint64_t bytes = 0;
    // octet_length reads a stored value's size without fetching it.
    Status s = Select("SELECT coalesce(sum(octet_length(body)), 0)::bigint FROM reports r " +
                          rounds_sql::NewestUpTo("$1", "$2"),
                      pg::Params().Int8(ToSql(graph_id)).Int8(round),
                      [&](const pg::QueryResult& r, int i) { bytes = static_cast<std::uint64_t>(r.Int8(i, 0)); });
    if (!s.ok()) return s;
    return bytes;
  }

  Status SetGraphLabel(std::uint64_t graph_id, std::uint32_t label) override {
    return SetForGraph(graph_id, "graph_labels", "label", pg::Params().Int8(ToSql(graph_id)).Int8(label));
  }

  Result<std::map<std::uint64_t, std::uint32_t>> GraphLabels() override {
    std::map<std::uint64_t, std::uint32_t> labels;
    Status s = Select("SELECT graph_id, label FROM graph_labels", pg::Params(), [&](const pg::QueryResult& r, int i) {
      labels[FromSql(r.Int8(i, 0))] = static_cast<std::uint32_t>(r.Int8(i, 1));
    });
    if (!s.ok()) return s;
    return labels;
  }

  Status SetGraphSymmetrisation(std::uint64_t graph_id, const std::string& rule) override {
    return SetForGraph(graph_id, "graph_symmetrisation", "rule", pg::Params().Int8(ToSql(graph_id)).Text(rule));
  }

  Result<std::map<std::uint64_t, std::string>> GraphSymmetrisations() override {
    std::map<std::uint64_t, std::string> rules;
    Status s = Select("SELECT graph_id, rule FROM graph_symmetrisation", pg::Params(),
                      [&](const pg::QueryResult& r, int i) { rules[FromSql(r.Int8(i, 0))] = r.Text(i, 1); });
    if (!s.ok()) return s;
    return rules;
  }

  Result<std::uint64_t> AddJob(const std::string& status_json) override {
    std::uint64_t id = 0;
    Status s = pool_->Run([&](pg::Connection& c) -> Status {
      Result<pg::QueryResult> r = c.Query(
          "INSERT INTO jobs (status_json, created_unix, updated_unix) VALUES ($1, $2, $2) RETURNING job_id",
          pg::Params().Text(status_json).Int8(UnixSeconds()));
      if (!r.ok()) return r.status();
      id = FromSql(r->Int8(0, 0));
      return Status::Ok();
    });
    if (!s.ok()) return s;
    return id;
  }

  Status UpdateJob(std::uint64_t job_id, const std::string& status_json) override {
    return pool_->Run([&](pg::Connection& c) -> Status {
      Result<pg::QueryResult> r =
          c.Query("UPDATE jobs SET status_json = $2, updated_unix = $3 WHERE job_id = $1",
                  pg::Params().Int8(ToSql(job_id)).Text(status_json).Int8(UnixSeconds()));
      if (!r.ok()) return r.status();
      if (r->Affected() == 0) return Status::FailedPrecondition("no job " + std::to_string(job_id));
      return Status::Ok();
    });
  }

  Result<std::vector<StoredJob>> ListJobs() override {
    std::vector<StoredJob> jobs;
    Status s = Select("SELECT job_id, status_json FROM jobs ORDER BY job_id", pg::Params(),
                      [&](const pg::QueryResult& r, int i) { jobs.push_back({FromSql(r.Int8(i, 0)), r.Text(i, 1)}); });
    if (!s.ok()) return s;
    return jobs;
  }

  // A cursor in one read-only transaction: a consistent snapshot, fetched
  // in chunks so that a graph of millions of users streams in bounded memory.
  Status ForEachReport(std::uint64_t graph_id, std::uint32_t round,
                       const std::function<void(const ReportRecord&)>& visit) override {
    std::size_t visited = 0;
    return pool_->Read([&](pg::Connection& c) -> Status {
      if (visited > 0) return Status::Unavailable("postgresql: the connection dropped while reading reports");
      LDPGRAPH_RETURN_IF_ERROR(c.Exec("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"));
      Status s = CheckKept(c, graph_id, round);
      if (s.ok()) s = Stream(c, graph_id, round, [&](const ReportRecord& r) {
        ++visited;
        visit(r);
      });
      (void)c.Exec(s.ok() ? "COMMIT" : "ROLLBACK");
      return s;
    });
  }

  bool Shared() const override { return true; }

  // Reachable, and a primary: a standby (after a failover, before the
  // address moved) answers reads but refuses every commit.
  Status CheckReady() override {
    bool standby = false;
    Status s = Select("SELECT pg_is_in_recovery()", pg::Params(),
                      [&](const pg::QueryResult& r, int i) { standby = r.Bytes(i, 0)[0] != 0; });
    if (!s.ok()) return s;
    return standby ? Status::Unavailable("postgresql: the server is a read-only standby") : Status::Ok();
  }

  Result<std::optional<std::uint64_t>> HoldLead() override {
    std::lock_guard<std::mutex> lock(lead_mu_);
    if (lead_epoch_) {
      // The lead lives with the session that holds the advisory lock: a
      // round trip on it proves the session (so the lock) is still there,
      // and the epoch that no later leader has raised it.
      Result<std::uint64_t> current = LeaseEpoch(lead_db_);
      if (current.ok() && *current == *lead_epoch_) return lead_epoch_;
      // Lost: the session is closed for good (were the lock somehow still
      // held, closing releases it); a later call may take the lead anew.
      lead_epoch_.reset();
      lead_db_ = pg::Connection();
      if (!current.ok()) return current.status();
      return std::optional<std::uint64_t>();
    }
    if (!lead_db_.Alive()) {
      Result<pg::Connection> c = pg::Connection::Open(options_.conninfo, options_.password, LeadSettings());
      if (!c.ok()) return c.status();
      lead_db_ = std::move(c).value();
    }
    Result<pg::QueryResult> r = lead_db_.Query("SELECT pg_try_advisory_lock($1)", pg::Params().Int8(kLeadLock),
                                               pg::Format::kText);
    if (!r.ok()) return r.status();
    if (r->Text(0, 0) != "t") return std::optional<std::uint64_t>();
    Result<pg::QueryResult> epoch =
        lead_db_.Query("UPDATE training_lease SET epoch = epoch + 1 RETURNING epoch", pg::Params());
    if (!epoch.ok() || epoch->rows() != 1) {
      lead_db_ = pg::Connection();  // gives the lock back
      return epoch.ok() ? Status::DataLoss("postgresql: training_lease holds no row") : epoch.status();
    }
    lead_epoch_ = FromSql(epoch->Int8(0, 0));
    return lead_epoch_;
  }

  Result<std::uint64_t> AddSharedJob(const std::string& status_json, const std::string& request_json) override {
    std::uint64_t id = 0;
    Status s = pool_->Run([&](pg::Connection& c) -> Status {
      Result<pg::QueryResult> r = c.Query(
          "INSERT INTO jobs (status_json, request_json, created_unix, updated_unix) VALUES ($1, $2, $3, $3) "
          "RETURNING job_id",
          pg::Params().Text(status_json).Text(request_json).Int8(UnixSeconds()));
      if (!r.ok()) return r.status();
      id = FromSql(r->Int8(0, 0));
      return Status::Ok();
    });
    if (!s.ok()) return s;
    return id;
  }

  Result<std::optional<ClaimedJob>> ClaimNextJob(std::uint64_t epoch) override {
    std::optional<ClaimedJob> claimed;
    Status s = pool_->Run([&](pg::Connection& c) -> Status {
      Result<pg::QueryResult> r = c.Query(
          std::string(kLeaseHeld) +
              "UPDATE jobs SET claimed = true, updated_unix = $1 WHERE EXISTS (SELECT 1 FROM lease) AND job_id = ("
              "  SELECT job_id FROM jobs WHERE NOT claimed AND NOT cancel_requested AND NOT over "
              "  AND request_json IS NOT NULL ORDER BY job_id LIMIT 1 FOR UPDATE SKIP LOCKED) "
              "RETURNING job_id, status_json, request_json",
          pg::Params().Int8(UnixSeconds()).Int8(ToSql(epoch)));
      if (!r.ok()) return r.status();
      if (r->rows() == 1) {
        claimed = ClaimedJob{FromSql(r->Int8(0, 0)), r->Text(0, 1), r->Text(0, 2)};
        return Status::Ok();
      }
      return StillLeading(c, epoch);  // no job to claim, or no longer the leader
    });
    if (!s.ok()) return s;
    return claimed;
  }

  Status UpdateLedJob(std::uint64_t job_id, const std::string& status_json, std::uint64_t epoch,
                      bool final) override {
    return pool_->Run([&](pg::Connection& c) -> Status {
      Result<pg::QueryResult> r =
          c.Query(std::string(kLeaseHeld) +
                      "UPDATE jobs SET status_json = $1, updated_unix = $3, over = $4::boolean "
                      "WHERE job_id = $5 AND NOT over AND EXISTS (SELECT 1 FROM lease)",
                  pg::Params().Text(status_json).Int8(ToSql(epoch)).Int8(UnixSeconds()).Text(final ? "t" : "f").Int8(
                      ToSql(job_id)));
      if (!r.ok()) return r.status();
      if (r->Affected() == 1) return Status::Ok();
      LDPGRAPH_RETURN_IF_ERROR(StillLeading(c, epoch));
      return Status::FailedPrecondition("job " + std::to_string(job_id) + " is unknown or has already ended");
    });
  }

  Result<std::optional<StoredJob>> GetJob(std::uint64_t job_id) override {
    std::optional<StoredJob> job;
    Status s = Select("SELECT job_id, status_json FROM jobs WHERE job_id = $1", pg::Params().Int8(ToSql(job_id)),
                      [&](const pg::QueryResult& r, int i) { job = StoredJob{FromSql(r.Int8(i, 0)), r.Text(i, 1)}; });
    if (!s.ok()) return s;
    return job;
  }

  Result<std::vector<StoredJob>> ClaimedJobs() override {
    std::vector<StoredJob> jobs;
    Status s = Select("SELECT job_id, status_json FROM jobs WHERE claimed AND NOT over ORDER BY job_id", pg::Params(),
                      [&](const pg::QueryResult& r, int i) { jobs.push_back({FromSql(r.Int8(i, 0)), r.Text(i, 1)}); });
    if (!s.ok()) return s;
    return jobs;
  }

  Result<bool> RequestJobCancel(std::uint64_t id, const std::string& cancelled_json) override {
    bool ended_now = false;
    Status s = pool_->Run([&](pg::Connection& c) -> Status {
      // One statement: a leader that claims the job concurrently either
      // claimed it first (the request reaches its run) or never will.
      Result<pg::QueryResult> r = c.Query(
          "UPDATE jobs SET cancel_requested = true, updated_unix = $3, "
          "  status_json = CASE WHEN claimed THEN status_json ELSE $2 END, over = NOT claimed "
          "WHERE job_id = $1 AND NOT over RETURNING claimed",
          pg::Params().Int8(ToSql(id)).Text(cancelled_json).Int8(UnixSeconds()));
      if (!r.ok()) return r.status();
      if (r->rows() == 0) return Status::FailedPrecondition("job " + std::to_string(id) + " is unknown or has ended");
      ended_now = r->Bytes(0, 0)[0] == 0;
      return Status::Ok();
    });
    if (!s.ok()) return s;
    return ended_now;
  }

  Result<bool> JobCancelRequested(std::uint64_t id) override {
    bool requested = false;
    Status s = Select("SELECT cancel_requested FROM jobs WHERE job_id = $1", pg::Params().Int8(ToSql(id)),
                      [&](const pg::QueryResult& r, int i) { requested = r.Bytes(i, 0)[0] != 0; });
    if (!s.ok()) return s;
    return requested;
  }

  void Close() override {
    queue_.Close();
    std::lock_guard<std::mutex> lock(join_mu_);
    if (writer_.joinable()) writer_.join();
  }

 private:
  // Fences a leader's statement: the lease row, share-locked, when it still
  // holds epoch $2. A daemon taking the lead waits for the lock to raise the
  // epoch, and a statement that waited on a raise sees the new epoch: every
  // fenced write is ordered before or after each change of leader.
  static constexpr const char* kLeaseHeld = "WITH lease AS (SELECT 1 FROM training_lease WHERE epoch = $2 FOR SHARE) ";

  static Result<std::uint64_t> LeaseEpoch(pg::Connection& c) {
    Result<pg::QueryResult> r = c.Query("SELECT epoch FROM training_lease", pg::Params());
    if (!r.ok()) return r.status();
    if (r->rows() != 1) return Status::DataLoss("postgresql: training_lease holds no row");
    return FromSql(r->Int8(0, 0));
  }

  // Why a fenced write changed nothing: kFailedPrecondition when the lead
  // of `epoch` has passed to another daemon; Ok when it still holds.
  static Status StillLeading(pg::Connection& c, std::uint64_t epoch) {
    Result<std::uint64_t> current = LeaseEpoch(c);
    if (!current.ok()) return current.status();
    if (*current == epoch) return Status::Ok();
    return Status::FailedPrecondition("the training lead of epoch " + std::to_string(epoch) +
                                      " has passed to another daemon: the write is refused");
  }

  // The lead's connection must notice a server that went silent (a lost
  // network) within about 3 s, inside a new leader's kLeaseGrace of 4 s,
  // not at the system's TCP timeout of minutes.
  static std::vector<std::pair<std::string, std::string>> LeadSettings() {
    return {{"keepalives", "1"},
            {"keepalives_idle", "1"},
            {"keepalives_interval", "1"},
            {"keepalives_count", "2"},
            {"tcp_user_timeout", "2500"}};
  }

  // In the read's snapshot: whether `round` can still be assembled.
  static Status CheckKept(pg::Connection& c, std::uint64_t graph_id, std::uint32_t round) {
    Result<pg::QueryResult> r =
        c.Query(std::string(rounds_sql::kSelectRoundState) + " WHERE graph_id = $1", pg::Params().Int8(ToSql(graph_id)));
    if (!r.ok()) return r.status();
    return CheckRoundKept(graph_id, r->rows() ? std::optional<RoundState>(RoundOf(*r, 0)) : std::nullopt, round);
  }

  // Row i of rounds_sql::kSelectRoundState.
  static RoundState RoundOf(const pg::QueryResult& r, int i) {
    RoundState state;
    state.current = static_cast<std::uint32_t>(r.Int8(i, 1));
    state.opened_unix = r.Int8(i, 2);
    state.history = static_cast<std::uint32_t>(r.Int8(i, 3));
    return state;
  }

  Status Stream(pg::Connection& c, std::uint64_t graph_id, std::uint32_t round,
                const std::function<void(const ReportRecord&)>& visit) {
    Result<pg::QueryResult> declared = c.Query(
        "DECLARE ldpgraph_reports NO SCROLL CURSOR FOR SELECT user_id, round, report_id, body FROM reports r " +
            rounds_sql::NewestUpTo("$1", "$2") + " ORDER BY user_id",
        pg::Params().Int8(ToSql(graph_id)).Int8(round));
    if (!declared.ok()) return declared.status();
    ReportRecord record;
    record.graph_id = graph_id;
    for (;;) {
      Result<pg::QueryResult> chunk = c.Query("FETCH 20000 FROM ldpgraph_reports", pg::Params());
      if (!chunk.ok()) return chunk.status();
      if (chunk->rows() == 0) return Status::Ok();
      for (int i = 0; i < chunk->rows(); ++i) {
        record.user_id = static_cast<std::uint32_t>(chunk->Int8(i, 0));
        record.round = static_cast<std::uint32_t>(chunk->Int8(i, 1));
        if (chunk->Length(i, 2) != record.report_id.size()) {
          return Status::DataLoss("store: report of user " + std::to_string(record.user_id) +
                                  " has a report id of the wrong size");
        }
        std::memcpy(record.report_id.data(), chunk->Bytes(i, 2), record.report_id.size());
        record.bytes.assign(chunk->Bytes(i, 3), chunk->Bytes(i, 3) + chunk->Length(i, 3));
        visit(record);
      }
    }
  }

  // One read (repeated on a fresh connection if the server dropped the first).
  Status Select(const std::string& sql, const pg::Params& params,
                const std::function<void(const pg::QueryResult&, int)>& visit) {
    return pool_->Read([&](pg::Connection& c) -> Status {
      Result<pg::QueryResult> r = c.Query(sql, params);
      if (!r.ok()) return r.status();
      for (int i = 0; i < r->rows(); ++i) visit(*r, i);
      return Status::Ok();
    });
  }

  // Sets `column` ($2) of graph $1's row in a per-graph admin table,
  // replacing an earlier value; kFailedPrecondition for an unknown graph.
  Status SetForGraph(std::uint64_t graph_id, const char* table, const char* column, const pg::Params& params) {
    const std::string sql = std::string("INSERT INTO ") + table + " (graph_id, " + column +
                            ", set_unix) SELECT $1, $2, extract(epoch FROM now())::bigint "
                            "WHERE EXISTS (SELECT 1 FROM graphs WHERE graph_id = $1) "
                            "ON CONFLICT (graph_id) DO UPDATE SET " + column + " = excluded." + column +
                            ", set_unix = excluded.set_unix";
    return pool_->Run([&](pg::Connection& c) -> Status {
      Result<pg::QueryResult> r = c.Query(sql, params);
      if (!r.ok()) return r.status();
      if (r->Affected() == 0) return Status::FailedPrecondition("no graph " + std::to_string(graph_id));
      return Status::Ok();
    });
  }

  using Pending = CommitQueue::Pending;

  void WriterLoop() {
    queue_.Serve(options_.max_reports_per_commit, [this](const std::vector<Pending>& b) { return Write(b); },
                 options_.on_commit);
  }

  // One INSERT for the whole batch, committed when it returns. The rows it
  // returns are the new ones; every other record met an existing row
  // (another daemon's, an earlier batch's, or its own twin earlier in this
  // batch), which is read to tell a duplicate from a conflict.
  Result<std::vector<InsertOutcome>> Write(const std::vector<Pending>& batch) {
    if (!writer_db_.Alive()) {  // lost, or closed by a restart while idle: reconnect first
      Result<pg::Connection> fresh = pg::Connection::Open(options_.conninfo, options_.password);
      if (!fresh.ok()) return fresh.status();
      writer_db_ = std::move(fresh).value();
    }
    using Key = std::tuple<std::int64_t, std::int64_t, std::int64_t>;  // (graph, user, round)
    std::vector<std::int64_t> graphs, users, rounds;
    std::vector<const std::vector<std::uint8_t>*> ids, bodies;
    std::vector<std::vector<std::uint8_t>> id_bytes;
    id_bytes.reserve(batch.size());
    for (const Pending& p : batch) {
      graphs.push_back(ToSql(p.record.graph_id));
      users.push_back(p.record.user_id);
      rounds.push_back(p.record.round);
      id_bytes.emplace_back(p.record.report_id.begin(), p.record.report_id.end());
      ids.push_back(&id_bytes.back());
      bodies.push_back(&p.record.bytes);
    }
    // A row is inserted only in its graph's open round (0 for a graph
    // collected once), read FOR SHARE: a round that opens meanwhile waits
    // for this statement to commit, or this statement for it and then
    // reads the new round.
    Result<pg::QueryResult> inserted = writer_db_.Query(
        "INSERT INTO reports (graph_id, user_id, round, report_id, body, received_unix) "
        "SELECT g, u, r, i, b, $6 FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bytea[], $5::bytea[]) "
        "  AS t(g, u, r, i, b) "
        "WHERE t.r = coalesce((SELECT current_round FROM graph_rounds WHERE graph_id = t.g FOR SHARE), 0) "
        "ON CONFLICT (graph_id, user_id, round) DO NOTHING RETURNING graph_id, user_id, round",
        pg::Params().Int8Array(graphs).Int8Array(users).Int8Array(rounds).ByteaArray(ids).ByteaArray(bodies).Int8(
            UnixSeconds()));
    if (!inserted.ok()) return inserted.status();
    std::map<Key, bool> fresh;  // (graph, user, round) -> its first record still unclaimed
    for (int i = 0; i < inserted->rows(); ++i) {
      fresh[{inserted->Int8(i, 0), inserted->Int8(i, 1), inserted->Int8(i, 2)}] = true;
    }
    std::vector<InsertOutcome> outcomes(batch.size(), InsertOutcome::kStored);
    std::vector<std::size_t> existing;
    for (std::size_t i = 0; i < batch.size(); ++i) {
      auto it = fresh.find({graphs[i], users[i], rounds[i]});
      if (it != fresh.end() && it->second) {
        it->second = false;  // this record is the one stored
      } else {
        existing.push_back(i);
      }
    }
    if (existing.empty()) return outcomes;
    std::vector<std::int64_t> g, u, r;
    for (std::size_t i : existing) {
      g.push_back(graphs[i]);
      u.push_back(users[i]);
      r.push_back(rounds[i]);
    }
    Result<pg::QueryResult> rows = writer_db_.Query(
        "SELECT r.graph_id, r.user_id, r.round, r.report_id, r.body FROM reports r "
        "JOIN unnest($1::bigint[], $2::bigint[], $3::bigint[]) AS t(g, u, n) "
        "  ON r.graph_id = t.g AND r.user_id = t.u AND r.round = t.n",
        pg::Params().Int8Array(g).Int8Array(u).Int8Array(r));
    if (!rows.ok()) return rows.status();
    std::map<Key, int> row_of;
    for (int i = 0; i < rows->rows(); ++i) row_of[{rows->Int8(i, 0), rows->Int8(i, 1), rows->Int8(i, 2)}] = i;
    for (std::size_t i : existing) {
      auto it = row_of.find({graphs[i], users[i], rounds[i]});
      if (it == row_of.end()) {
        // Neither inserted nor there: only the round check keeps a row out
        // (pruning never touches an open round's reports).
        outcomes[i] = InsertOutcome::kWrongRound;
        continue;
      }
      const int row = it->second;
      const ReportRecord& rec = batch[i].record;
      const bool same_id = rows->Length(row, 3) == rec.report_id.size() &&
                           std::memcmp(rows->Bytes(row, 3), rec.report_id.data(), rec.report_id.size()) == 0;
      const bool same_bytes = rows->Length(row, 4) == rec.bytes.size() &&
                              std::memcmp(rows->Bytes(row, 4), rec.bytes.data(), rec.bytes.size()) == 0;
      outcomes[i] = same_id && same_bytes ? InsertOutcome::kDuplicate : InsertOutcome::kConflict;
    }
    return outcomes;
  }

  PostgresStoreOptions options_;
  pg::Connection writer_db_;  // the writer thread's only
  std::mutex lead_mu_;
  pg::Connection lead_db_;    // holds the lead's advisory lock while this daemon leads
  std::optional<std::uint64_t> lead_epoch_;  // while this daemon leads
  std::unique_ptr<pg::Pool> pool_;

  // Never waits for company: one round trip already carries every report
  // queued during the last, a few hundred under load.
  CommitQueue queue_{0, 0, std::chrono::microseconds(0)};
  std::mutex join_mu_;
  std::thread writer_;
};

}  // namespace

Result<std::unique_ptr<Store>> OpenPostgresReportStore(const PostgresStoreOptions& options) {
  if (options.conninfo.empty()) return Status::InvalidArgument("the PostgreSQL connection string is empty");
  if (options.pool_size == 0 || options.pool_size > 256) {
    return Status::InvalidArgument("the PostgreSQL pool size must be in [1, 256]");
  }
  if (options.max_reports_per_commit == 0) return Status::InvalidArgument("max_reports_per_commit must be positive");
  Result<pg::Connection> writer = pg::Connection::Open(options.conninfo, options.password);
  if (!writer.ok()) return writer.status();
  LDPGRAPH_RETURN_IF_ERROR(MigratePostgresSchema(*writer));
  Result<std::unique_ptr<pg::Pool>> pool = pg::Pool::Open(options.conninfo, options.password, options.pool_size);
  if (!pool.ok()) return pool.status();
  return std::unique_ptr<Store>(
      std::make_unique<PostgresReportStore>(options, std::move(writer).value(), std::move(pool).value()));
}

}  // namespace ldpgraph
