// A model's whole state, its parameters and BatchNorm statistics, as values:
// what early stopping keeps of the best epoch and what FedAvg averages.
// `Model` is any model with Parameters() and Stats().
#ifndef LDPGRAPH_DAEMON_TRAIN_MODEL_STATE_H_
#define LDPGRAPH_DAEMON_TRAIN_MODEL_STATE_H_

#include <vector>

#include "engine/tape.h"

namespace ldpgraph {

struct ModelState {
  std::vector<Matrix> params;
  std::vector<BatchNormStats> stats;
};

template <typename Model>
ModelState SaveModelState(Model* model) {
  ModelState s;
  for (Parameter* p : model->Parameters()) s.params.push_back(p->value);
  for (BatchNormStats* b : model->Stats()) s.stats.push_back(*b);
  return s;
}

// Requires `s` saved from a model of the same architecture.
template <typename Model>
void LoadModelState(const ModelState& s, Model* model) {
  auto params = model->Parameters();
  for (std::size_t i = 0; i < params.size(); ++i) params[i]->value = s.params[i];
  auto stats = model->Stats();
  for (std::size_t i = 0; i < stats.size(); ++i) *stats[i] = s.stats[i];
}

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_TRAIN_MODEL_STATE_H_
