#include "gap/progap_pipeline.h"

#include <chrono>

#include "gap/aggregation.h"
#include "gap/gap_training.h"

namespace ldpgraph {
namespace {

// [H^(0), A^(1), .., A^(k)] side by side.
Matrix StageInput(const std::vector<Matrix>& parts) {
  Eigen::Index cols = 0;
  for (const Matrix& p : parts) cols += p.cols();
  Matrix out(parts.front().rows(), cols);
  Eigen::Index at = 0;
  for (const Matrix& p : parts) {
    out.middleCols(at, p.cols()) = p;
    at += p.cols();
  }
  return out;
}

// A stage's embedding (rows normalised) and its head's class probabilities.
void Embed(TrainedEncoder& stage, const NodeFeatures& input, Matrix* embedding, Matrix* probs) {
  Tape tape(false, nullptr);
  const Tape::Var h = stage.mlp.Forward(tape, input);
  *embedding = tape.value(h);
  *probs = Softmax(tape.value(stage.head.Forward(tape, h)));
  NormaliseRows(embedding);
}

}  // namespace

Result<ProGapRun> TrainProGap(const GapInputs& in, const GapOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  LDPGRAPH_RETURN_IF_ERROR(ValidateGap(in, options));
  const GapOptions o = ResolveGapOptions(options, in.split.train.size());
  const bool node_level = o.privacy == GapPrivacy::kNode;
  const int hops = o.model.hops;
  ProGapRun run;
  run.privacy = o.privacy;
  run.stages = hops + 1;

  // The release: K one-hop aggregations and, at node level, K + 1 stages of
  // DP-SGD, under one noise multiplier.
  run.sensitivity = PerHopSensitivity(in, o);
  run.delta = ReleaseDelta(in, o);
  std::unique_ptr<ModuleSgd> sgd = DpSgdModule(o, in.split.train.size(), o.encoder_epochs);
  if (std::isfinite(o.epsilon)) {
    auto releases = [&](double s) {
      std::vector<GaussianRelease> r{{s, 1.0, hops}};
      if (sgd) r.push_back({s, sgd->sampling_rate, sgd->steps * (hops + 1)});
      return r;
    };
    Result<CalibratedNoise> calibrated = CalibrateReleases(releases, o.epsilon, run.delta);
    if (!calibrated.ok()) return calibrated.status();
    run.noise_multiplier = calibrated->noise_multiplier;
    run.noise_stddev = calibrated->noise_multiplier * run.sensitivity;
    run.epsilon = calibrated->epsilon;
    if (sgd) {
      sgd->noise_multiplier = calibrated->noise_multiplier;
      run.dp_sgd_steps = sgd->steps * (hops + 1);
    }
  }
  std::unique_ptr<RandomSource> os_noise;
  Result<RandomSource*> noise_source = NoiseSource(o, &os_noise);
  if (!noise_source.ok()) return noise_source.status();
  RandomSource& noise = **noise_source;
  CsrGraph bounded;
  const CsrGraph* graph = AggregatedGraph(in, o, &bounded);
  if (node_level) run.max_degree = o.max_degree;

  const int total_epochs = (hops + 1) * o.encoder_epochs;
  std::vector<Matrix> parts;  // H^(0), A^(1), ..
  Matrix embedding, probs;
  for (int k = 0; k <= hops; ++k) {
    GapOptions stage = o;
    stage.seed = o.seed + static_cast<std::uint64_t>(k) * 0x9e37ULL;
    if (o.on_progress) {
      stage.on_progress = [&o, k, total_epochs](int done, int) { o.on_progress(k * o.encoder_epochs + done, total_epochs); };
    }
    NodeFeatures input;
    GapInputs stage_in = in;
    if (k > 0) {
      Result<std::vector<Matrix>> aggregated = PrivateMultiHopAggregation(*graph, embedding, 1, run.noise_stddev, noise);
      if (!aggregated.ok()) return aggregated.status();
      parts.push_back(std::move((*aggregated)[1]));
      input = NodeFeatures::Dense(StageInput(parts));
      stage_in.features = &input;
    }
    Result<TrainedEncoder> trained = TrainEncoder(stage_in, stage, total_epochs, sgd.get(), noise);
    if (!trained.ok()) return trained.status();
    if (o.cancel != nullptr && o.cancel->load()) return Status::FailedPrecondition("cancelled");
    Embed(*trained, *stage_in.features, &embedding, &probs);
    if (k == 0) {
      run.mlp_test_accuracy = Accuracy(probs, *in.labels, in.split.test);
      parts.push_back(embedding);
    }
  }
  run.val_accuracy = Accuracy(probs, *in.labels, in.split.val);
  run.test_accuracy = Accuracy(probs, *in.labels, in.split.test);
  run.probabilities = std::move(probs);
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return run;
}

}  // namespace ldpgraph
