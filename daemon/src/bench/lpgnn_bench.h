// `ldpgraph bench lpgnn`: one LPGNN training with private features, as
// `experiment lpgnn` runs it: a CSV node dataset's features through the
// multi-bit mechanism, its labels through randomized response, then one
// node model at one KProp step count (GCN, kx 4 by default). Each of
// `paths` trains on the same reports, one after the other:
//   factored  the reports kept sparse through KProp and the first layer
//   packed    the same, with the KProp'd inputs also held as bfloat16 for
//             the first layer's products (engine/packed_rows.h; AMX only)
//   dense     the same estimates as an n x d matrix (the path before them)
// so their times and accuracies compare within one run. By default the
// path TrainLpgnn takes here: packed where the CPU has AMX, else factored.
#ifndef LDPGRAPH_DAEMON_BENCH_LPGNN_BENCH_H_
#define LDPGRAPH_DAEMON_BENCH_LPGNN_BENCH_H_

#include <ostream>
#include <string>
#include <vector>

#include "ldpgraph/status.h"

namespace ldpgraph {

struct LpgnnBenchOptions {
  std::string dataset;
  std::string model = "gcn";  // or "sage"
  double feature_epsilon = 1;
  double label_epsilon = 1;
  int kx = 4;
  int epochs = 500;  // at most; early stopping as the experiments'
  std::vector<std::string> paths;  // empty: TrainLpgnn's own choice
  int threads = 0;  // 0: all cores
  // After the users' reports are made, their numbering as a daemon would
  // hold it: in a random arrival order (`shuffle`); each user keeps her
  // reports, labels and place in the split. Then TrainLpgnn's own
  // renumbering (LpgnnOptions::node_order): "auto" as its defaults have it
  // (reverse Cuthill-McKee from 2^18 users), or "as-given", "rcm",
  // "degree" (graph/node_order.h) at any size.
  bool shuffle = false;
  std::string node_order = "auto";
};

// Prints nodes=, features=, perturb_seconds=, reported_entries=, then per
// path: PATH_feature_mb=, PATH_train_seconds=, PATH_epochs=,
// PATH_accuracy=, PATH_peak_rss_mb= (the process's peak so far), and with
// both paths dense_over_factored_seconds= (packed_over_factored_seconds=).
// Errors: kInvalidArgument for a bad option (before any work); the dataset's.
Status RunLpgnnBench(const LpgnnBenchOptions& options, std::ostream& out);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_BENCH_LPGNN_BENCH_H_
