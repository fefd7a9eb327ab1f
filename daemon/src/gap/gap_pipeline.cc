#include "gap/gap_pipeline.h"

#include <chrono>

#include "gap/aggregation.h"
#include "gap/gap_training.h"
#include "privacy/discrete_gaussian.h"
#include "privacy/rdp_accountant.h"

namespace ldpgraph {
namespace {

bool Cancelled(const GapOptions& o) { return o.cancel != nullptr && o.cancel->load(); }

}  // namespace

Status ValidateGap(const GapInputs& in, const GapOptions& o) {
  if (in.graph == nullptr || in.features == nullptr || in.labels == nullptr) {
    return Status::InvalidArgument("GAP needs a graph, features and labels");
  }
  const auto n = static_cast<Eigen::Index>(in.graph->num_nodes());
  if (in.features->rows() != n || static_cast<Eigen::Index>(in.labels->size()) != n) {
    return Status::InvalidArgument("graph, features and labels disagree on the number of nodes");
  }
  if (!(o.epsilon > 0)) return Status::InvalidArgument("epsilon must be positive (inf: no privacy)");
  if (!(o.delta >= 0 && o.delta < 1)) return Status::InvalidArgument("delta must be in (0, 1) (0: the default)");
  if (o.model.hops < 1) return Status::InvalidArgument("GAP needs at least one hop (K >= 1)");
  if (o.encoder_epochs < 1 || o.classifier_epochs < 0) {
    return Status::InvalidArgument("epochs must be at least 1 (classifier: 0 for the default)");
  }
  if (in.split.train.empty()) return Status::InvalidArgument("GAP needs at least one training node");
  if (o.privacy == GapPrivacy::kNode) {
    if (o.max_degree < 1) return Status::InvalidArgument("the degree bound D must be at least 1");
    if (o.batch_size < 0 || static_cast<std::size_t>(o.batch_size) > in.split.train.size()) {
      return Status::InvalidArgument("the DP-SGD batch size must be in [1, training nodes = " +
                                     std::to_string(in.split.train.size()) + "] (0: the default)");
    }
    if (!(o.clip_norm > 0) || !std::isfinite(o.clip_norm)) {
      return Status::InvalidArgument("the clipping norm must be positive and finite");
    }
    if (!IsSymmetric(*in.graph)) return Status::InvalidArgument("node-level GAP needs an undirected graph");
  }
  return Status::Ok();
}

std::uint64_t GapMemoryEstimate(const GapInputs& in, const GapOptions& options) {
  const GapOptions o = ResolveGapOptions(options, in.split.train.size());
  const auto n = static_cast<std::uint64_t>(in.graph->num_nodes());
  const auto entries = static_cast<std::uint64_t>(in.graph->num_entries());
  const auto f = static_cast<std::uint64_t>(in.features->cols());
  const auto h = static_cast<std::uint64_t>(o.model.hidden);
  const auto c = static_cast<std::uint64_t>(std::max(in.classes, 1));
  const auto hops = static_cast<std::uint64_t>(o.model.hops);
  // value, gradient, Adam's m and v, the best epoch's copy, and the
  // temporaries of a step (measured: 8.46 GB for a first layer of 2^24 x 16
  // weights, 8.4 floats a weight; this counts 9)
  constexpr std::uint64_t kFloat = 4, kPerWeight = 9 * kFloat;
  constexpr std::uint64_t kHiddenLayers = 8;  // the encoder's and the classifier's h x h layers, generously
  const std::uint64_t weights = (f * h + kHiddenLayers * h * h + (hops + 2) * h * c) * kPerWeight;
  const std::uint64_t features = in.features->is_sparse()
                                     ? static_cast<std::uint64_t>(in.features->sparse().indices.size()) * 8 + n * 8
                                     : n * f * kFloat;
  // Aggregates (twice: the best classifier's inputs are kept while the next
  // candidate trains), and every layer's output, gradient and dropout mask
  // over all nodes.
  const std::uint64_t activations = n * h * kFloat * (2 * (hops + 1) + 3 * kHiddenLayers) + n * c * kFloat * 4;
  // The job's copy of the held graph, and the one it aggregates over (and
  // at node level its degree-bounded copy).
  const std::uint64_t graph = (entries * 4 + n * 8) * (o.privacy == GapPrivacy::kNode ? 3 : 2);
  return weights + features + activations + graph;
}

void GapRelease::Record(const GapCalibration& calibration) {
  sensitivity = calibration.sensitivity;
  delta = calibration.delta;
  noise_multiplier = calibration.noise_multiplier;
  noise_stddev = calibration.noise_stddev;
  epsilon = calibration.epsilon;
}

Result<GapCalibration> CalibrateGap(const GapInputs& in, const GapOptions& options) {
  LDPGRAPH_RETURN_IF_ERROR(ValidateGap(in, options));
  const GapOptions o = ResolveGapOptions(options, in.split.train.size());
  // The K aggregations and, at node level, both modules' DP-SGD steps.
  return CalibrateModules(in, o, 1);
}

Result<GapRun> TrainGap(const GapInputs& in, const GapOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  Result<GapCalibration> calibration = CalibrateGap(in, options);  // validates the inputs and options first
  if (!calibration.ok()) return calibration.status();
  const GapOptions o = ResolveGapOptions(options, in.split.train.size());
  std::unique_ptr<RandomSource> os_noise;
  Result<RandomSource*> noise_source = NoiseSource(o, &os_noise);
  if (!noise_source.ok()) return noise_source.status();
  RandomSource& noise = **noise_source;
  const bool node_level = o.privacy == GapPrivacy::kNode;

  GapRun run;
  run.privacy = o.privacy;
  run.Record(*calibration);
  std::unique_ptr<ModuleSgd> encoder_sgd = std::move(calibration->encoder_sgd);
  std::unique_ptr<ModuleSgd> classifier_sgd = std::move(calibration->classifier_sgd);
  if (encoder_sgd) run.dp_sgd_steps = encoder_sgd->steps + classifier_sgd->steps;
  const int hops = o.model.hops;
  // The graph the aggregations read: at node level, every degree bounded.
  CsrGraph bounded;
  const CsrGraph* graph = AggregatedGraph(in, o, &bounded);
  if (node_level) run.max_degree = o.max_degree;

  // 1. The encoder, on features and labels alone.
  const int total_epochs = o.encoder_epochs + o.classifier_epochs;
  Result<TrainedEncoder> encoder = TrainEncoder(in, o, total_epochs, encoder_sgd.get(), noise);
  if (!encoder.ok()) return encoder.status();
  if (Cancelled(o)) return Status::FailedPrecondition("cancelled");
  Matrix x0, encoder_logits;
  {
    Tape tape(false, nullptr);
    const Tape::Var embedding = encoder->mlp.Forward(tape, *in.features);
    x0 = tape.value(embedding);
    encoder_logits = tape.value(encoder->head.Forward(tape, embedding));
    run.mlp_test_accuracy = Accuracy(Softmax(encoder_logits), *in.labels, in.split.test);
  }
  NormaliseRows(&x0);

  // 2. The private aggregates.
  Result<std::vector<Matrix>> aggregates = PrivateMultiHopAggregation(*graph, std::move(x0), hops, run.noise_stddev,
                                                                      noise);
  if (!aggregates.ok()) return aggregates.status();

  // 3. The classifier on the aggregates: the paper's, the residual one, or
  // (edge level, automatic) both and the better on validation.
  std::vector<bool> candidates;
  if (o.residual == GapResidual::kOff || (o.residual == GapResidual::kAuto && !node_level)) candidates.push_back(false);
  if (o.residual == GapResidual::kOn || o.residual == GapResidual::kAuto) candidates.push_back(true);
  std::unique_ptr<TrainedClassifier> best;
  for (bool residual : candidates) {
    Result<TrainedClassifier> c = TrainClassifier(in, o, o.classifier_epochs, o.encoder_epochs, *aggregates,
                                                  residual ? &encoder_logits : nullptr, classifier_sgd.get(), noise);
    if (!c.ok()) return c.status();
    if (Cancelled(o)) return Status::FailedPrecondition("cancelled");
    if (best == nullptr || c->val_accuracy > best->val_accuracy) {
      best = std::make_unique<TrainedClassifier>(std::move(c).value());
      run.residual = residual;
    }
  }
  run.val_accuracy = best->val_accuracy;
  run.test_accuracy = Accuracy(best->probs, *in.labels, in.split.test);
  run.model = std::make_unique<GapModel>();
  run.model->encoder_config = encoder->mlp.config();
  run.model->encoder = std::move(encoder->mlp);
  run.model->encoder_head = std::move(encoder->head);
  run.model->residual = run.residual;
  run.model->classifier = std::move(best->classifier);
  run.model->privacy = {o.privacy, run.epsilon, run.delta, run.noise_multiplier, run.noise_stddev, run.sensitivity,
                        run.max_degree};
  run.model->node_probabilities = std::move(best->probs);
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return run;
}

Result<PrivateMlpRun> TrainPrivateMlp(const GapInputs& in, const GapOptions& options) {
  LDPGRAPH_RETURN_IF_ERROR(ValidateGap(in, options));
  const GapOptions o = ResolveGapOptions(options, in.split.train.size());
  std::unique_ptr<RandomSource> os_noise;
  Result<RandomSource*> noise_source = NoiseSource(o, &os_noise);
  if (!noise_source.ok()) return noise_source.status();
  GapOptions level = o;
  level.privacy = GapPrivacy::kNode;  // DP-SGD whenever epsilon is finite
  std::unique_ptr<ModuleSgd> sgd = DpSgdModule(level, in.split.train.size(), o.encoder_epochs);
  PrivateMlpRun run;
  if (sgd) {
    const double delta = DeltaOf(o, static_cast<double>(in.graph->num_nodes()));
    run.epsilon = o.epsilon;
    run.delta = delta;
    Result<double> multiplier = CalibrateNoiseMultiplier(
        [&](double s) { return std::vector<GaussianRelease>{{s, sgd->sampling_rate, sgd->steps}}; }, o.epsilon, delta);
    if (!multiplier.ok()) return multiplier.status();
    sgd->noise_multiplier = *multiplier;
  }
  Result<TrainedEncoder> e = TrainEncoder(in, o, o.encoder_epochs, sgd.get(), **noise_source);
  if (!e.ok()) return e.status();
  Tape tape(false, nullptr);
  const Tape::Var scores = e->head.Forward(tape, e->mlp.Forward(tape, *in.features));
  run.probabilities = Softmax(tape.value(scores));
  run.test_accuracy = Accuracy(run.probabilities, *in.labels, in.split.test);
  return run;
}

}  // namespace ldpgraph
