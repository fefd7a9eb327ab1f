// DP-SGD (Abadi et al., "Deep learning with differential privacy", CCS
// 2016) for models whose examples are rows that never mix: MLPs on node rows,
// GAP's encoder and classifier under node-level DP. Each step
//   1. takes a Poisson sample of the examples (each joins with probability q);
//   2. finds every sampled example's gradient norm from one backward pass
//      (per-row norms, engine/row_gradient_norms.h) and clips it to C by
//      weighting that example's loss by min(1, C / norm): a second pass then
//      gives the sum of the clipped gradients exactly;
//   3. adds discrete Gaussian noise of standard deviation s C' to every
//      coordinate, on the 2^-20 grid (C' is C with the grid's rounding,
//      privacy/discrete_gaussian.h), divides by the expected batch q N;
//   4. takes an Adam step (post-processing of the noisy gradient).
// Privacy: adding or removing one example changes the clipped sum by at
// most C, so the run is `steps` releases of the Poisson-subsampled Gaussian
// with multiplier s and rate q: GaussianRelease{s, q, steps} for the RDP
// accountant. Nothing is selected on held-out data: the model is the last
// step's, so the guarantee covers it as it is.
#ifndef LDPGRAPH_DAEMON_TRAIN_DP_SGD_H_
#define LDPGRAPH_DAEMON_TRAIN_DP_SGD_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

#include "engine/adam.h"
#include "engine/tape.h"
#include "ldpgraph/status.h"
#include "privacy/rdp_accountant.h"

namespace ldpgraph {

// A model trained on rows: its parameters, and the class scores of a batch
// of rows (one score row per listed row, in order) computed from those rows
// alone.
struct RowModel {
  std::vector<Parameter*> parameters;
  std::function<Tape::Var(Tape&, const std::vector<std::uint32_t>& rows)> forward;
};

struct DpSgdOptions {
  double noise_multiplier = 1.0;  // s: the noise's standard deviation over the clipping norm
  double clip_norm = 1.0;         // C
  double sampling_rate = 0.1;     // q
  std::int64_t steps = 100;
  AdamOptions adam;
  std::uint64_t seed = 0;  // dropout (the batches come from the noise source: they must stay secret)
  std::function<void(std::int64_t step)> on_step;  // after each step (1-based)
  const std::atomic<bool>* cancel = nullptr;        // once set, no further step is taken
};

// Steps for `epochs` passes over the data in expectation: ceil(epochs / q).
std::int64_t DpSgdSteps(double epochs, double sampling_rate);

// One step's parts, exposed for tests.
// The sum over `batch` of every example's gradient clipped to L2 norm
// `clip_norm`, written into the parameters' grads (what was there is
// dropped); dropout masks drawn from `dropout_seed`. Requires a label for
// every batch row. Errors: kInvalidArgument when the model's rows mix or it
// gives other than one score row per batch row.
Status ClippedGradientSum(const RowModel& model, const std::vector<int>& labels,
                          const std::vector<std::uint32_t>& batch, double clip_norm, std::uint64_t dropout_seed);
// The noise a step adds: standard deviation s x C', C' the clipping norm
// rounded for the grid over every coordinate of the parameters.
double DpSgdNoiseStddev(const std::vector<Parameter*>& parameters, double noise_multiplier, double clip_norm);

// Trains `model` on the labelled `examples` (labels[row] >= 0), the noise
// and the batches drawn from `noise`. Errors: kInvalidArgument for a
// multiplier or clipping norm not positive and finite, a rate outside
// (0, 1], steps < 1, an example without a label, or a model whose rows mix
// or that reads a parameter outside its row-counting products (Tape::RowsSeparable:
// clipping would not bound one example's influence); nothing is trained then.
Status TrainDpSgd(const RowModel& model, const std::vector<int>& labels, const std::vector<std::uint32_t>& examples,
                  const DpSgdOptions& options, RandomSource& noise);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_TRAIN_DP_SGD_H_
