// A copy of everything that defines a model's predictions (parameter values
// and BatchNorm statistics), to restore the best epoch after training.
#ifndef LDPGRAPH_DAEMON_TRAIN_SNAPSHOT_H_
#define LDPGRAPH_DAEMON_TRAIN_SNAPSHOT_H_

#include <vector>

#include "engine/tape.h"

namespace ldpgraph {

struct Snapshot {
  std::vector<Matrix> params;
  std::vector<BatchNormStats> stats;
};

template <typename Model>
Snapshot TakeSnapshot(Model* model) {
  Snapshot s;
  for (Parameter* p : model->Parameters()) s.params.push_back(p->value);
  for (BatchNormStats* b : model->Stats()) s.stats.push_back(*b);
  return s;
}

template <typename Model>
void RestoreSnapshot(const Snapshot& s, Model* model) {
  auto params = model->Parameters();
  for (std::size_t i = 0; i < params.size(); ++i) params[i]->value = s.params[i];
  auto stats = model->Stats();
  for (std::size_t i = 0; i < stats.size(); ++i) *stats[i] = s.stats[i];
}

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_TRAIN_SNAPSHOT_H_
