// `ldpgraph bench linkldp`: the server's link denoising at scale (issue 25's
// target: 10^6 users, 10^7 reported entries, under 30 s and 4 GB). A
// Barabasi-Albert graph of N users and mean degree D, every user's report
// made in-process by the SDK's mechanism, then the denoiser timed alone:
// report collection, candidate pairs, the degree prior's fit, posteriors and
// the hybrid graph.
#ifndef LDPGRAPH_DAEMON_BENCH_LINKLDP_BENCH_H_
#define LDPGRAPH_DAEMON_BENCH_LINKLDP_BENCH_H_

#include <cstdint>
#include <ostream>
#include <string>

#include "ldpgraph/status.h"

namespace ldpgraph {

struct LinkLdpBenchOptions {
  std::uint32_t users = 1000000;
  std::uint32_t degree = 10;           // mean degree (BA's m = degree / 2)
  std::string mechanism = "dprr";      // dprr or rr-degree
  double epsilon = 1;
  std::string output = "hybrid";       // hard, soft or hybrid
  int threads = 0;                     // 0: all cores
};

// Prints users=, true_entries=, reported_entries=, perturb_seconds=,
// collect_seconds=, denoise_seconds=, total_seconds=, candidate_pairs=,
// kept_edges=, peak_rss_mb=.
Status RunLinkLdpBench(const LinkLdpBenchOptions& options, std::ostream& out);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_BENCH_LINKLDP_BENCH_H_
