// `ldpgraph bench admin`: does heavy admin work leave the daemon answering?
// Starts a Daemon in-process on loopback (temporary store, throwaway PKI,
// the default 2 I/O threads and memory budget) and sets up, through its API:
// a graph of `users` devices' reports (DPRR edges, multi-bit features, RR
// labels) with a GCN trained on it, a held graph for GAP, two embedding
// graphs for GW, and a large held graph's upload body. Then:
//   1. each heavy request alone (an upload, a GAP job, a GW query, a
//      prediction for every user): its time, what it leased from the memory
//      budget (its estimate) and the process's peak memory over the baseline.
//      The peak includes this bench's client, which holds two copies of an
//      upload's body (HttpsClient's request and its text) and of a
//      prediction's answer (read, then cut out): subtract them to compare
//      with the daemon's estimate (upload_body_mb, predict_answer_mb);
//   2. all four at once while a client probes GET /healthz every `probe_ms`:
//      the probes' latency before and during the load;
//   3. a dense graph (issue 66): `dense_users` users each reporting RR at
//      epsilon 0.1 (about n/2 noisy neighbours a user): a node job trained
//      on it, a device's first result and a prediction for every user, each
//      with its estimate and measured peak.
#ifndef LDPGRAPH_DAEMON_BENCH_ADMIN_LOAD_BENCH_H_
#define LDPGRAPH_DAEMON_BENCH_ADMIN_LOAD_BENCH_H_

#include <cstdint>
#include <ostream>
#include <string>

#include "ldpgraph/status.h"

namespace ldpgraph {

struct AdminLoadBenchOptions {
  std::uint32_t users = 100000;       // the reported graph, predicted whole
  std::uint32_t held_nodes = 200000;  // the held graph uploaded (5 edges, 5 feature entries a node)
  std::uint32_t gap_nodes = 20000;    // the held graph GAP trains on
  std::uint32_t gw_nodes = 1000;      // each of the two embedding graphs GW compares
  unsigned probe_ms = 5;              // between two /healthz probes
  std::uint32_t dense_users = 4000;   // the dense RR graph (0: not measured)
  std::string dir;                    // empty: a fresh directory under /tmp, removed after
};

// Prints key=value lines: for each of upload, gap, gw and predict alone
// <name>_status, <name>_seconds, <name>_estimate_mb, <name>_peak_mb; then
// healthz_idle_p50_ms, healthz_idle_p99_ms, loaded_seconds, healthz_probes,
// healthz_p50_ms, healthz_p99_ms, healthz_max_ms, busy_retries, loaded_peak_mb;
// then dense_report_mb, dense_assembled_edges and for each of dense_train,
// dense_result and dense_predict the same four figures as above.
Status RunAdminLoadBench(const AdminLoadBenchOptions& options, std::ostream& out);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_BENCH_ADMIN_LOAD_BENCH_H_
