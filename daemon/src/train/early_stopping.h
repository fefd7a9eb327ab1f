// Early stopping with best-model restore, shared by the graph and node
// trainers: watch the validation loss every epoch, keep a copy of the model
// (parameters and BatchNorm statistics) at its best, stop once the loss has
// not improved for `patience` epochs, but never before `from`.
#ifndef LDPGRAPH_DAEMON_TRAIN_EARLY_STOPPING_H_
#define LDPGRAPH_DAEMON_TRAIN_EARLY_STOPPING_H_

#include <limits>
#include <vector>

#include "engine/tape.h"

namespace ldpgraph {

template <typename Model>
class EarlyStopping {
 public:
  // `enabled` false: never stop early, still restore the best epoch.
  EarlyStopping(Model* model, int from, int patience, bool enabled)
      : model_(model), from_(from), patience_(patience), enabled_(enabled) {
    Snapshot();
  }

  // Records epoch `epoch`'s validation loss; true when training should stop.
  bool Update(int epoch, double val_loss) {
    if (val_loss < best_loss_) {
      best_loss_ = val_loss;
      best_epoch_ = epoch;
      since_best_ = 0;
      Snapshot();
    } else {
      ++since_best_;
    }
    return enabled_ && epoch >= from_ && since_best_ >= patience_;
  }

  // Puts the best epoch's parameters and statistics back into the model.
  void RestoreBest() {
    auto params = model_->Parameters();
    for (std::size_t i = 0; i < params.size(); ++i) params[i]->value = params_[i];
    auto stats = model_->Stats();
    for (std::size_t i = 0; i < stats.size(); ++i) *stats[i] = stats_[i];
  }

  int best_epoch() const { return best_epoch_; }

 private:
  void Snapshot() {
    params_.clear();
    stats_.clear();
    for (Parameter* p : model_->Parameters()) params_.push_back(p->value);
    for (BatchNormStats* b : model_->Stats()) stats_.push_back(*b);
  }

  Model* model_;
  int from_, patience_;
  bool enabled_;
  double best_loss_ = std::numeric_limits<double>::infinity();
  int best_epoch_ = 0;
  int since_best_ = 0;
  std::vector<Matrix> params_;
  std::vector<BatchNormStats> stats_;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_TRAIN_EARLY_STOPPING_H_
