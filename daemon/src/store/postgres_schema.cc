#include "store/postgres_schema.h"

#include <cstdint>
#include <string>

namespace ldpgraph {
namespace {

// "LDPG": the advisory lock migrations hold, so that daemons starting
// together create the schema once.
constexpr std::int64_t kMigrationLock = 0x4C445047;

// Migration k takes the database from schema version k to k + 1. Append only.
// Ids are bigint: a uint64 graph id is bit-cast, a uint32 user id fits.
const char* const kMigrations[] = {
    // 0 -> 1: what SQLite's schema 4 holds: graphs, reports (one per graph
    // and user), graph labels and symmetrisation, training jobs (identity:
    // a sequence never hands out an id twice).
    "CREATE TABLE graphs ("
    "  graph_id bigint PRIMARY KEY,"
    "  config_json text NOT NULL,"
    "  created_unix bigint NOT NULL);"
    "CREATE TABLE reports ("
    "  graph_id bigint NOT NULL,"
    "  user_id bigint NOT NULL,"
    "  report_id bytea NOT NULL,"
    "  body bytea NOT NULL,"
    "  received_unix bigint NOT NULL,"
    "  PRIMARY KEY (graph_id, user_id));"
    "CREATE TABLE graph_labels ("
    "  graph_id bigint PRIMARY KEY REFERENCES graphs (graph_id),"
    "  label bigint NOT NULL,"
    "  set_unix bigint NOT NULL);"
    "CREATE TABLE graph_symmetrisation ("
    "  graph_id bigint PRIMARY KEY REFERENCES graphs (graph_id),"
    "  rule text NOT NULL,"
    "  set_unix bigint NOT NULL);"
    "CREATE TABLE jobs ("
    "  job_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
    "  status_json text NOT NULL,"
    "  created_unix bigint NOT NULL,"
    "  updated_unix bigint NOT NULL);",
    // 1 -> 2: documents every daemon serves (model versions, held graphs):
    // data and summary in one row, numbers from a per-kind counter.
    "CREATE TABLE documents ("
    "  kind text NOT NULL,"
    "  id bigint NOT NULL,"
    "  data bytea NOT NULL,"
    "  summary text NOT NULL,"
    "  created_unix bigint NOT NULL,"
    "  PRIMARY KEY (kind, id));"
    "CREATE TABLE document_numbers ("
    "  kind text PRIMARY KEY,"
    "  last bigint NOT NULL);",
    // 2 -> 3: the shared job queue: the request the leader runs, whether a
    // leader claimed the job, whether an admin asked to cancel it.
    "ALTER TABLE jobs ADD COLUMN request_json text;"
    "ALTER TABLE jobs ADD COLUMN claimed boolean NOT NULL DEFAULT false;"
    "ALTER TABLE jobs ADD COLUMN cancel_requested boolean NOT NULL DEFAULT false;",
    // 3 -> 4 (issue 66): the training lead's fencing token. Each daemon that
    // takes the lead raises the epoch, and a leader's writes name the epoch
    // they were made under: a deposed leader's are refused. `over`: a job's
    // end is written once (a finished job is never ended again).
    "CREATE TABLE training_lease ("
    "  one boolean PRIMARY KEY DEFAULT true CHECK (one),"
    "  epoch bigint NOT NULL);"
    "INSERT INTO training_lease (one, epoch) VALUES (true, 0);"
    "ALTER TABLE jobs ADD COLUMN over boolean NOT NULL DEFAULT false;"
    "UPDATE jobs SET over = (status_json::jsonb ->> 'state') IN ('succeeded', 'failed', 'cancelled');",
    // 4 -> 5 (issue 68): graphs collected in rounds, as SQLite's schema 5.
    // The reports stored before are round 0 of graphs collected once.
    "ALTER TABLE reports ADD COLUMN round bigint NOT NULL DEFAULT 0;"
    "ALTER TABLE reports DROP CONSTRAINT reports_pkey;"
    "ALTER TABLE reports ADD PRIMARY KEY (graph_id, user_id, round);"
    "CREATE TABLE graph_rounds ("
    "  graph_id bigint PRIMARY KEY REFERENCES graphs (graph_id),"
    "  current_round bigint NOT NULL,"
    "  opened_unix bigint NOT NULL,"
    "  history bigint NOT NULL);",
};

static_assert(sizeof(kMigrations) / sizeof(kMigrations[0]) == kPostgresSchemaVersion,
              "one migration per schema version");

}  // namespace

// Runs `body` in a transaction; rolls back when it fails.
Status InTransaction(pg::Connection& c, const std::function<Status()>& body) {
  LDPGRAPH_RETURN_IF_ERROR(c.Exec("BEGIN"));
  Status s = body();
  if (s.ok()) s = c.Exec("COMMIT");
  if (!s.ok()) (void)c.Exec("ROLLBACK");
  return s;
}

Status MigratePostgresSchema(pg::Connection& c) {
  return InTransaction(c, [&]() -> Status {
    Result<pg::QueryResult> lock = c.Query("SELECT pg_advisory_xact_lock($1)", pg::Params().Int8(kMigrationLock));
    if (!lock.ok()) return lock.status();
    LDPGRAPH_RETURN_IF_ERROR(c.Exec("CREATE TABLE IF NOT EXISTS ldpgraph_schema (version integer NOT NULL)"));
    Result<pg::QueryResult> v = c.Query("SELECT version FROM ldpgraph_schema", pg::Params());
    if (!v.ok()) return v.status();
    if (v->rows() > 1) return Status::DataLoss("postgresql: ldpgraph_schema holds more than one version");
    const std::int32_t version = v->rows() == 1 ? v->Int4(0, 0) : 0;
    if (version > kPostgresSchemaVersion) {
      return Status::DataLoss("postgresql: the database has ldpgraph schema version " + std::to_string(version) +
                              "; this build knows up to " + std::to_string(kPostgresSchemaVersion) +
                              " (a newer ldpgraphd wrote it)");
    }
    for (std::int32_t k = version; k < kPostgresSchemaVersion; ++k) {
      LDPGRAPH_RETURN_IF_ERROR(c.Exec(kMigrations[k]));
    }
    if (version == kPostgresSchemaVersion) return Status::Ok();
    LDPGRAPH_RETURN_IF_ERROR(c.Exec("DELETE FROM ldpgraph_schema"));
    Result<pg::QueryResult> set =
        c.Query("INSERT INTO ldpgraph_schema (version) VALUES ($1)", pg::Params().Int4(kPostgresSchemaVersion));
    return set.status();
  });
}

}  // namespace ldpgraph
