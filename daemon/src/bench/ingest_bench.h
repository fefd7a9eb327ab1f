// `ldpgraph bench ingest`: the daemon's ingest path end to end. Starts
// `daemons` Daemons in-process on loopback (throwaway PKI) on one store: a
// temporary SQLite file, or a PostgreSQL database (a scratch cluster the
// run starts and removes, or the server `store_connection` names), then
// drives them with `connections` keep-alive TLS clients, dealt round-robin
// to the daemons, each an SDK transport::Uploader on its own thread,
// sending one DPRR report per user, one at a time or `pipeline` at a time
// (a relay or a device with a queue). Every report is durable (SQLite: WAL,
// synchronous=FULL; PostgreSQL: synchronous_commit=on) before its 200.
#ifndef LDPGRAPH_DAEMON_BENCH_INGEST_BENCH_H_
#define LDPGRAPH_DAEMON_BENCH_INGEST_BENCH_H_

#include <cstdint>
#include <ostream>
#include <string>

#include "ldpgraph/status.h"

namespace ldpgraph {

struct IngestBenchOptions {
  unsigned connections = 64;
  std::uint64_t reports = 200000;  // one per user: n = reports
  std::uint32_t degree = 10;       // true neighbours per user
  double epsilon = 1.0;
  // The clients run in this process on the same cores: one I/O thread for the
  // daemon leaves the other core to them (measured: 23-28k vs 20-27k reports/s with 2).
  // Pipelined clients need less of it: with --pipeline 16, 2 are faster
  // (measured: 45k and 70k vs 37k and 36k reports/s, alternating).
  unsigned server_threads = 1;
  unsigned handshakes = 256;       // fresh full handshakes timed before the load
  // Reports each connection sends back to back before reading their answers
  // (Uploader::SendMany's window); 1: one report in flight per connection.
  unsigned pipeline = 1;
  std::string dir;                 // empty: a fresh directory under /tmp, removed after
  std::string store = "sqlite";    // or "postgresql"
  // postgresql: a libpq connection string to an empty database (its
  // password from LDPGRAPH_STORE_PASSWORD); empty: a scratch cluster.
  std::string store_connection;
  std::string store_password;
  unsigned daemons = 1;            // several only on postgresql
};

// What a run measured, for a comparison of runs.
struct IngestBenchFigures {
  double reports_per_s = 0, p50_ms = 0, p99_ms = 0;
  std::uint64_t acknowledged = 0, stored = 0, lost = 0;
};

// Prints key=value lines: reports_per_s, p50_ms, p99_ms, handshakes_per_s,
// lost, acknowledged, stored, commits, reports_per_commit, commit_ms_mean,
// store_busy (the share of the run the store spent committing), cpu_busy
// (the share of all cores the process used), ...
Status RunIngestBench(const IngestBenchOptions& options, std::ostream& out, IngestBenchFigures* figures = nullptr);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_BENCH_INGEST_BENCH_H_
