// `ldpgraph bench assemble`: graph assembly from a real store, SQLite or
// PostgreSQL (a scratch cluster the run starts, or the database
// `store_connection` names). A child process fills the store with one DPRR
// report per user (built by the SDK, inserted through the store's group
// commit), then this process, which has allocated nothing big, assembles the
// graph from it: its peak RSS is the assembly's own.
#ifndef LDPGRAPH_DAEMON_BENCH_ASSEMBLE_BENCH_H_
#define LDPGRAPH_DAEMON_BENCH_ASSEMBLE_BENCH_H_

#include <cstdint>
#include <ostream>
#include <string>

#include "graph/symmetrise.h"
#include "ldpgraph/status.h"

namespace ldpgraph {

struct AssembleBenchOptions {
  std::uint32_t users = 1000000;
  std::uint32_t degree = 10;  // true neighbours per user; DPRR keeps the degree in expectation
  double epsilon = 1.0;
  Symmetrisation rule = Symmetrisation::kNone;
  std::string dir;  // empty: a fresh directory under /tmp, removed after
  std::string store = "sqlite";  // or "postgresql"
  std::string store_connection;  // postgresql: an empty database; empty: a scratch cluster
  std::string store_password;
};

// Prints key=value lines: users, reporters, reported_entries, edges,
// fill_seconds, assemble_seconds, peak_rss_mb.
Status RunAssembleBench(const AssembleBenchOptions& options, std::ostream& out);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_BENCH_ASSEMBLE_BENCH_H_
