// How GAP's two trained modules learn (gap_pipeline.h runs them): full
// batch keeping the epoch of best validation accuracy (edge level, or no
// privacy), or DP-SGD keeping the last step (node level).
#ifndef LDPGRAPH_DAEMON_GAP_GAP_TRAINING_H_
#define LDPGRAPH_DAEMON_GAP_GAP_TRAINING_H_

#include <cmath>
#include <functional>
#include <memory>
#include <vector>

#include "gap/gap_options.h"
#include "privacy/rdp_accountant.h"
#include "train/dp_sgd.h"

namespace ldpgraph {

// The options' noise source, or the OS CSPRNG (held in *os).
Result<RandomSource*> NoiseSource(const GapOptions& o, std::unique_ptr<RandomSource>* os);
// The options' delta, or the default: 1 / (10 x the units protected:
// edges at edge level, nodes at node level).
double DeltaOf(const GapOptions& o, double units);
// DP-SGD's sampling rate and step count for `epochs` (null at edge level
// or without privacy: full batch).
std::unique_ptr<ModuleSgd> DpSgdModule(const GapOptions& o, std::size_t training_nodes, int epochs);

// One noise multiplier for every release of a GAP-family run, calibrated
// for them together: the K aggregations and, at node level (finite
// epsilon), the encoder's DP-SGD steps and `classifier_trainings` times the
// classifier's (GAP trains one classifier, ProGAP one per later stage).
// `o` must be resolved (ResolveGapOptions) and valid.
Result<GapCalibration> CalibrateModules(const GapInputs& in, const GapOptions& o, int classifier_trainings);
// The graph the aggregations read: at node level a degree-bounded copy
// (kept in *bounded), else the inputs' own.
const CsrGraph* AggregatedGraph(const GapInputs& in, const GapOptions& o, CsrGraph* bounded);

// A module's two forward passes: over every node (full-batch training and
// evaluation) and over a DP-SGD batch's rows.
struct ModuleForwards {
  std::function<Tape::Var(Tape&)> all;
  std::function<Tape::Var(Tape&, const std::vector<std::uint32_t>& rows)> rows;
};

// Trains `parameters` on the training nodes' cross-entropy for `epochs`:
// full-batch Adam keeping the epoch of best validation accuracy (the loss
// breaking ties) when `sgd` is null, else DP-SGD keeping the last step.
// `progress` (may be empty) gets each epoch done; `seed` drives dropout.
Status TrainModule(const std::vector<Parameter*>& parameters, const ModuleForwards& forwards, const GapInputs& in,
                   const GapOptions& o, int epochs, const ModuleSgd* sgd, std::uint64_t seed,
                   const std::function<void(int)>& progress, RandomSource& noise);
// GapOptions::on_progress for one module whose epochs follow `before`
// (empty when the options have no progress callback).
std::function<void(int)> ModuleProgress(const GapOptions& o, int before, int total);
// The listed rows of `m`, in order.
Matrix Rows(const Matrix& m, const std::vector<std::uint32_t>& rows);

struct TrainedEncoder {
  Mlp mlp, head;  // the encoder and its linear softmax head
};

// The encoder with its head, on features and labels alone, for
// o.encoder_epochs; `sgd` null: full batch. Progress counts its epochs first,
// out of `total_epochs` (the classifier's follow).
Result<TrainedEncoder> TrainEncoder(const GapInputs& in, const GapOptions& o, int total_epochs, const ModuleSgd* sgd,
                                    RandomSource& noise);

struct TrainedClassifier {
  GapClassifier classifier;
  Matrix probs;  // every node's class probabilities
  double val_accuracy = 0;
};

// The classifier on the aggregates, its scores added to `base_logits`
// (null: the paper's classifier alone; set: residual, its output layer
// starting at zero). Progress counts its epochs after `epochs_before`.
Result<TrainedClassifier> TrainClassifier(const GapInputs& in, const GapOptions& o, int epochs, int epochs_before,
                                          const std::vector<Matrix>& aggregates, const Matrix* base_logits,
                                          const ModuleSgd* sgd, RandomSource& noise);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_GAP_GAP_TRAINING_H_
