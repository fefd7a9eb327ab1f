// Early stopping with best-model restore, shared by the graph and node
// trainers: watch a validation score every epoch (the loss, or for LPGNN's
// protocol the accuracy with the loss breaking ties), keep a copy of the
// model (parameters and BatchNorm statistics) at its best, stop once it has
// not improved for `patience` epochs, but never before `from`.
#ifndef LDPGRAPH_DAEMON_TRAIN_EARLY_STOPPING_H_
#define LDPGRAPH_DAEMON_TRAIN_EARLY_STOPPING_H_

#include <limits>
#include <vector>

#include "train/model_state.h"

namespace ldpgraph {

template <typename Model>
class EarlyStopping {
 public:
  // `enabled` false: never stop early, still restore the best epoch.
  EarlyStopping(Model* model, int from, int patience, bool enabled)
      : model_(model), from_(from), patience_(patience), enabled_(enabled) {
    Snapshot();
  }

  // Records epoch `epoch`'s validation score, lower is better, compared on
  // `score` first and `tie_break` on a tie; true when training should stop.
  bool Update(int epoch, double score, double tie_break = 0) {
    if (score < best_score_ || (score == best_score_ && tie_break < best_tie_break_)) {
      best_score_ = score;
      best_tie_break_ = tie_break;
      best_epoch_ = epoch;
      since_best_ = 0;
      Snapshot();
    } else {
      ++since_best_;
    }
    return enabled_ && epoch >= from_ && since_best_ >= patience_;
  }

  // Puts the best epoch's parameters and statistics back into the model.
  void RestoreBest() { LoadModelState(best_, model_); }

  int best_epoch() const { return best_epoch_; }

 private:
  void Snapshot() { best_ = SaveModelState(model_); }

  Model* model_;
  int from_, patience_;
  bool enabled_;
  double best_score_ = std::numeric_limits<double>::infinity();
  double best_tie_break_ = std::numeric_limits<double>::infinity();
  int best_epoch_ = 0;
  int since_best_ = 0;
  ModelState best_;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_TRAIN_EARLY_STOPPING_H_
