// What a GAP-family run is given and how it is set: its inputs, its
// options, and the noise calibrated for them before anything trains. Below
// both the pipeline that runs the modules (gap_pipeline.h) and the training
// of each module (gap_training.h), which share them.
#ifndef LDPGRAPH_DAEMON_GAP_GAP_OPTIONS_H_
#define LDPGRAPH_DAEMON_GAP_GAP_OPTIONS_H_

#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "gap/gap_model.h"
#include "graph/csr_graph.h"
#include "train/splits.h"

namespace ldpgraph {

struct GapInputs {
  const CsrGraph* graph = nullptr;
  const NodeFeatures* features = nullptr;
  const std::vector<int>* labels = nullptr;  // -1 unknown
  int classes = 2;
  Split split;
};

// kAuto: at edge level both classifiers are trained and the one with the
// better validation accuracy kept (validation labels are not what edge-level
// DP protects); at node level the residual (selecting on private validation
// labels would leak them).
enum class GapResidual { kAuto, kOff, kOn };

struct GapOptions {
  GapModelConfig model;
  int encoder_layers = 2;
  float encoder_dropout = 0.5f;
  GapPrivacy privacy = GapPrivacy::kEdge;
  double epsilon = INFINITY;  // for the whole release
  double delta = 0;           // 0: 1 / (10 x the edges) at edge level, 1 / (10 x the nodes) at node level
  int encoder_epochs = 100;
  // 0: the encoder's at edge level, 5 at node level, where every DP-SGD
  // epoch costs budget and the residual classifier needs few. DP-SGD
  // epochs are in expectation: each node is sampled that often.
  int classifier_epochs = 0;
  float lr = 0.01f;
  float weight_decay = 5e-4f;
  // Node level: the degree bound D, DP-SGD's expected batch (0: 512, or
  // every training node when fewer) and clipping norm.
  std::uint32_t max_degree = 10;
  int batch_size = 0;
  double clip_norm = 1.0;
  GapResidual residual = GapResidual::kAuto;  // kOff: the paper's classifier
  std::uint64_t seed = 0;  // weights, dropout, batches and the degree bound
  // Every draw of privacy noise. Null: the OS CSPRNG, as a model that is
  // released needs. Experiments pass a seeded source to be reproducible:
  // their noise is then not secret.
  RandomSource* noise = nullptr;
  // Called after each epoch (DP-SGD: each epoch's worth of steps) of the
  // encoder, then of the classifier, with the epochs done and in all.
  std::function<void(int done, int total)> on_progress;
  // Once set, training stops within an epoch (a DP-SGD step) and TrainGap
  // fails with kFailedPrecondition "cancelled"; nothing is released.
  const std::atomic<bool>* cancel = nullptr;
};

// The options with their automatic values resolved for `training_nodes`:
// the classifier's epochs (node level 5, else the encoder's) and the
// DP-SGD batch size (at most 512).
GapOptions ResolveGapOptions(const GapOptions& options, std::size_t training_nodes);

// DP-SGD for one module (null options: full batch).
struct ModuleSgd {
  double noise_multiplier = 0;
  double sampling_rate = 1;
  std::int64_t steps = 0;
};

// The noise a run of these options draws, found before anything trains:
// the per-hop sensitivity, delta, the one noise multiplier and its
// deviation, the (epsilon, delta) the whole release has, and at node level
// each module's DP-SGD schedule. Errors: ValidateGap's; kOutOfRange when no
// noise multiplier reaches epsilon (the daemon refuses such a job before it
// queues it).
struct GapCalibration {
  double sensitivity = 0, delta = 0, noise_multiplier = 0, noise_stddev = 0;
  double epsilon = INFINITY;
  std::unique_ptr<ModuleSgd> encoder_sgd, classifier_sgd;  // null at edge level or without privacy
};
}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_GAP_GAP_OPTIONS_H_
