#include "train/dp_sgd.h"

#include <algorithm>
#include <cmath>

#include "ldpgraph/samplers.h"
#include "privacy/discrete_gaussian.h"

namespace ldpgraph {
namespace {

// One Poisson sample: every example independently with probability q.
std::vector<std::uint32_t> PoissonBatch(const std::vector<std::uint32_t>& examples, double q, RandomSource& rng) {
  std::vector<std::uint32_t> batch;
  for (std::uint32_t row : examples) {
    if (Bernoulli(rng, q)) batch.push_back(row);
  }
  return batch;
}

}  // namespace

std::int64_t DpSgdSteps(double epochs, double sampling_rate) {
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(epochs / sampling_rate - 1e-9)));
}

Status ClippedGradientSum(const RowModel& model, const std::vector<int>& labels,
                          const std::vector<std::uint32_t>& batch, double clip_norm, std::uint64_t dropout_seed) {
  for (Parameter* p : model.parameters) p->ZeroGrad();
  if (batch.empty()) return Status::Ok();
  std::vector<int> batch_labels(batch.size());
  for (std::size_t i = 0; i < batch.size(); ++i) batch_labels[i] = labels[batch[i]];
  // Pass 1: every example's gradient norm (its loss unweighted).
  std::vector<float> weights(batch.size(), 1.0f);
  std::vector<double> squared_norms(batch.size(), 0.0);
  {
    SeededRandomSource masks(dropout_seed);
    Tape tape(true, &masks);
    tape.TrackRowGradientNorms(&squared_norms);
    const Tape::Var scores = model.forward(tape, batch);
    if (tape.value(scores).rows() != static_cast<Eigen::Index>(batch.size())) {
      return Status::InvalidArgument("the model gave " + std::to_string(tape.value(scores).rows()) +
                                     " score rows for a batch of " + std::to_string(batch.size()));
    }
    const Tape::Var loss = tape.WeightedCrossEntropySum(scores, &batch_labels, &weights);
    if (!tape.RowsSeparable()) {
      return Status::InvalidArgument("DP-SGD needs a model whose rows never mix (no aggregation or BatchNorm)");
    }
    tape.Backward(loss);
  }
  // Pass 2, the same dropout masks, each loss weighted by its clipping factor.
  for (std::size_t i = 0; i < batch.size(); ++i) {
    const double norm = std::sqrt(squared_norms[i]);
    weights[i] = norm > clip_norm ? static_cast<float>(clip_norm / norm) : 1.0f;
  }
  for (Parameter* p : model.parameters) p->ZeroGrad();
  SeededRandomSource masks(dropout_seed);
  Tape tape(true, &masks);
  tape.Backward(tape.WeightedCrossEntropySum(model.forward(tape, batch), &batch_labels, &weights));
  return Status::Ok();
}

double DpSgdNoiseStddev(const std::vector<Parameter*>& parameters, double noise_multiplier, double clip_norm) {
  Eigen::Index coordinates = 0;
  for (const Parameter* p : parameters) coordinates += p->value.size();
  return noise_multiplier * RoundedSensitivity(clip_norm, coordinates);
}

Status TrainDpSgd(const RowModel& model, const std::vector<int>& labels, const std::vector<std::uint32_t>& examples,
                  const DpSgdOptions& o, RandomSource& noise) {
  if (!(o.noise_multiplier > 0) || !std::isfinite(o.noise_multiplier)) {
    return Status::InvalidArgument("DP-SGD's noise multiplier must be positive and finite");
  }
  if (!(o.clip_norm > 0) || !std::isfinite(o.clip_norm)) {
    return Status::InvalidArgument("DP-SGD's clipping norm must be positive and finite");
  }
  if (!(o.sampling_rate > 0 && o.sampling_rate <= 1)) {
    return Status::InvalidArgument("DP-SGD's sampling rate must be in (0, 1]");
  }
  if (o.steps < 1) return Status::InvalidArgument("DP-SGD needs at least one step");
  for (std::uint32_t row : examples) {
    if (row >= labels.size() || labels[row] < 0) return Status::InvalidArgument("every DP-SGD example needs a label");
  }
  // Checked before any step: one example's pass must keep the rows apart.
  if (!examples.empty()) LDPGRAPH_RETURN_IF_ERROR(ClippedGradientSum(model, labels, {examples.front()}, 1, 0));
  const double stddev = DpSgdNoiseStddev(model.parameters, o.noise_multiplier, o.clip_norm);
  const double expected_batch = o.sampling_rate * static_cast<double>(examples.size());

  Adam adam(model.parameters, o.adam);
  SeededRandomSource dropout(o.seed ^ 0xd509ULL);
  for (std::int64_t step = 0; step < o.steps && (o.cancel == nullptr || !o.cancel->load()); ++step) {
    // The batches are part of the mechanism: drawn from the noise source,
    // whose draws stay secret. Batches anyone could recompute from a seed
    // would void the subsampling's amplification the accountant counts on.
    const std::vector<std::uint32_t> batch = PoissonBatch(examples, o.sampling_rate, noise);
    LDPGRAPH_RETURN_IF_ERROR(ClippedGradientSum(model, labels, batch, o.clip_norm, dropout.NextU64()));
    for (Parameter* p : model.parameters) {
      LDPGRAPH_RETURN_IF_ERROR(AddDiscreteGaussianNoise(&p->grad, stddev, noise));
      p->grad /= static_cast<float>(expected_batch);
    }
    adam.Step();
    if (o.on_step) o.on_step(step + 1);
  }
  return Status::Ok();
}

}  // namespace ldpgraph
