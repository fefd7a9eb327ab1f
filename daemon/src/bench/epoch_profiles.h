// Where the epochs of the three model kinds spend their time, by tape
// operation (engine/op_profile.h): an LPGNN GCN on factored multi-bit
// features with feature KProp, a GCN on sparse true features, and a GIN on
// a dataset of graphs. The first epoch (caches cold, the first KProp
// product not yet kept) is left out; the rest are averaged. Time outside
// every tape operation (the optimiser's step, accuracy, early stopping)
// shows as the epoch's seconds less the operations'.
#ifndef LDPGRAPH_DAEMON_BENCH_EPOCH_PROFILES_H_
#define LDPGRAPH_DAEMON_BENCH_EPOCH_PROFILES_H_

#include <map>
#include <string>

#include "dataset/graph_dataset.h"
#include "engine/op_profile.h"
#include "ldpgraph/status.h"

namespace ldpgraph {

struct EpochProfile {
  std::string model;  // "lpgnn", "gcn", "gin"
  int epochs = 0;     // averaged
  double epoch_seconds = 0;
  std::map<std::string, OpTime> ops;  // per epoch

  // An operation's share of the epoch (0 when it did not run).
  double Share(const std::string& op) const;
  double OpSeconds() const;  // every operation's, per epoch
};

// `node_dataset`: one graph with features and labels (CSV form); `epochs`
// counts the profiled ones (at least 1), each run trains one more.
Result<EpochProfile> ProfileLpgnnEpochs(const GraphDataset& node_dataset, int kx, int epochs);
Result<EpochProfile> ProfileGcnEpochs(const GraphDataset& node_dataset, int epochs);
Result<EpochProfile> ProfileGinEpochs(const GraphDataset& graphs, int epochs);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_BENCH_EPOCH_PROFILES_H_
