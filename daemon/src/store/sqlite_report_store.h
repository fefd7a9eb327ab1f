// SqliteReportStore: the embedded Store. One SQLite file in WAL mode
// with synchronous=FULL (a commit is on disk when COMMIT returns); one writer
// thread that takes every insert queued while the previous commit ran and
// commits them in one transaction, so fsyncs are shared by many reports.
// Reads use a second connection and never wait for the writer.
#ifndef LDPGRAPH_DAEMON_STORE_SQLITE_REPORT_STORE_H_
#define LDPGRAPH_DAEMON_STORE_SQLITE_REPORT_STORE_H_

#include <memory>
#include <string>

#include "store/store.h"

namespace ldpgraph {

struct SqliteStoreOptions {
  std::string path;                       // the database file; created if missing
  std::size_t max_reports_per_commit = 4096;
  CommitObserver on_commit;               // optional
};

// The schema version this build writes; older files are migrated on open.
constexpr int kStoreSchemaVersion = 5;

// Errors: kUnavailable when the file cannot be opened or written,
// kDataLoss when it is not an ldpgraph store or comes from a newer version.
Result<std::unique_ptr<Store>> OpenSqliteReportStore(const SqliteStoreOptions& options);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_STORE_SQLITE_REPORT_STORE_H_
