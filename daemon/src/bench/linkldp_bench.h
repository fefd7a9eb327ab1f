// `ldpgraph bench linkldp`: the server's link denoising at scale (issue 25's
// target: 10^6 users, 10^7 reported entries, under 30 s and 4 GB; issue
// 54's: with training, under 8 GB). A Barabasi-Albert graph of N users and
// mean degree D, or a dataset's graph (--dataset), every user's report made
// in-process by the SDK's mechanism and handed to the server's report
// collection one at a time, as ingest does; then the denoiser timed alone:
// candidate pairs, the degree prior's fit, posteriors and the graph asked
// for. With a dataset, a node classifier is then trained on the reports as
// the daemon's node jobs do (linkldp/denoised_training.h), on the
// dataset's true features and labels.
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
  std::string dataset;                 // a node-classification dataset; empty: Barabasi-Albert
  std::string train = "ours";          // with a dataset: ours, blink or none
  std::string model = "gcn";           // gcn or sage
};

// Prints users=, true_entries=, reported_entries=, perturb_seconds=,
// collect_seconds=, report_mb=, denoise_seconds=, total_seconds=,
// candidate_pairs=, kept_edges=, peak_rss_mb=; with training also
// train_seconds=, trainings=, chosen_graph=, chosen_edges=, test_accuracy=,
// train_peak_rss_mb=.
Status RunLinkLdpBench(const LinkLdpBenchOptions& options, std::ostream& out);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_BENCH_LINKLDP_BENCH_H_
