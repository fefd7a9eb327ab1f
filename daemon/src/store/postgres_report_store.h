// PostgresReportStore: the Store several daemons share (issue 53).
// Every daemon keeps the same contract as the SQLite store
// (report_store.h) on one PostgreSQL database:
//   - one report per (graph, user, round) across all daemons: the primary key
//     decides, and a daemon that loses the race reads the winner's row to
//     answer duplicate or conflict;
//   - an insert is acknowledged only after the statement holding it has
//     committed, which with PostgreSQL's default synchronous_commit = on
//     means its WAL is flushed;
//   - group commit: a writer thread sends every report queued while the
//     previous batch committed as one INSERT over unnest() of arrays, so
//     one round trip and one WAL flush serve the whole batch.
// Reads and admin writes take a connection from a small pool; a connection
// the server dropped is replaced on its next use. The schema is created and
// migrated on open under an advisory lock (daemons may start together); a
// database whose schema is newer than this build is refused.
#ifndef LDPGRAPH_DAEMON_STORE_POSTGRES_REPORT_STORE_H_
#define LDPGRAPH_DAEMON_STORE_POSTGRES_REPORT_STORE_H_

#include <cstddef>
#include <memory>
#include <string>

#include "ldpgraph/status.h"
#include "store/postgres_schema.h"  // kPostgresSchemaVersion
#include "store/store.h"

namespace ldpgraph {

struct PostgresStoreOptions {
  // A libpq connection string without the password, e.g.
  // "host=db.internal port=5432 dbname=ldpgraph user=ldpgraph sslmode=verify-full sslrootcert=/etc/ldpgraph/db-ca.pem".
  std::string conninfo;
  std::string password;        // empty: none, or libpq's own (PGPASSFILE)
  std::size_t pool_size = 4;   // connections for reads and admin writes, besides the writer's
  std::size_t max_reports_per_commit = 4096;
  CommitObserver on_commit;    // optional
};

// Errors: kInvalidArgument for options out of range, kUnavailable when the
// server cannot be reached or refuses the login, kDataLoss when the
// database holds a newer schema than this build knows.
Result<std::unique_ptr<Store>> OpenPostgresReportStore(const PostgresStoreOptions& options);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_STORE_POSTGRES_REPORT_STORE_H_
