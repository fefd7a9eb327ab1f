#include "gap/progap_pipeline.h"

#include <chrono>

#include "gap/aggregation.h"
#include "gap/gap_training.h"
#include "gap/progap_stage.h"

namespace ldpgraph {
namespace {

// What stage k reads and adds to: its input (the features, or the k-th
// aggregate), the earlier stages' frozen embeddings, and under a residual
// stage the stage before's scores (else null).
struct StageInputs {
  const NodeFeatures* input;
  const std::vector<Matrix>* earlier;
  const Matrix* base;
};

Tape::Var StageScores(Tape& t, ProGapStage& stage, const StageInputs& s) {
  std::vector<Tape::Var> frozen;
  for (const Matrix& h : *s.earlier) frozen.push_back(t.ConstantView(&h));
  const Tape::Var own = stage.Forward(t, *s.input, frozen).scores;
  return s.base == nullptr ? own : t.Add(own, t.ConstantView(s.base));
}

// The same on a DP-SGD batch's rows.
Tape::Var StageBatchScores(Tape& t, ProGapStage& stage, const StageInputs& s, const std::vector<std::uint32_t>& rows) {
  std::vector<Tape::Var> frozen;
  for (const Matrix& h : *s.earlier) frozen.push_back(t.Constant(Rows(h, rows)));
  const Tape::Var own = stage.Forward(t, *t.Own(s.input->Rows(rows)), frozen).scores;
  return s.base == nullptr ? own : t.Add(own, t.Constant(Rows(*s.base, rows)));
}

// The trained stage's embedding h_k and scores over every node.
void Evaluate(ProGapStage& stage, const StageInputs& s, Matrix* embedding, Matrix* scores) {
  Tape tape(false, nullptr);
  std::vector<Tape::Var> frozen;
  for (const Matrix& h : *s.earlier) frozen.push_back(tape.ConstantView(&h));
  const ProGapStage::Output out = stage.Forward(tape, *s.input, frozen);
  *embedding = tape.value(out.embedding);
  *scores = tape.value(out.scores);
  if (s.base != nullptr) *scores += *s.base;
}

}  // namespace

namespace {

// Each later stage's epochs (ProGapEpochs).
int LaterStageEpochs(const GapOptions& options) {
  const GapOptions o = ResolveGapOptions(options, 1);
  const bool dp_sgd = o.privacy == GapPrivacy::kNode && std::isfinite(o.epsilon);
  return dp_sgd || options.classifier_epochs > 0 ? o.classifier_epochs : o.encoder_epochs;
}

}  // namespace

int ProGapEpochs(const GapOptions& options) {
  return options.encoder_epochs + options.model.hops * LaterStageEpochs(options);
}

Result<GapCalibration> CalibrateProGap(const GapInputs& in, const GapOptions& options) {
  LDPGRAPH_RETURN_IF_ERROR(ValidateGap(in, options));
  const GapOptions o = ResolveGapOptions(options, in.split.train.size());
  // K one-hop aggregations and, at node level, K + 1 stages of DP-SGD
  // (stage 0 as GAP's encoder, the later ones as its classifier).
  return CalibrateModules(in, o, o.model.hops);
}

Result<ProGapRun> TrainProGap(const GapInputs& in, const GapOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  Result<GapCalibration> calibration = CalibrateProGap(in, options);  // validates the inputs and options first
  if (!calibration.ok()) return calibration.status();
  const GapOptions o = ResolveGapOptions(options, in.split.train.size());
  const int hops = o.model.hops;
  ProGapRun run;
  run.privacy = o.privacy;
  run.stages = hops + 1;
  run.Record(*calibration);
  std::unique_ptr<ModuleSgd> first_sgd = std::move(calibration->encoder_sgd);
  std::unique_ptr<ModuleSgd> later_sgd = std::move(calibration->classifier_sgd);
  if (first_sgd) run.dp_sgd_steps = first_sgd->steps + later_sgd->steps * hops;
  std::unique_ptr<RandomSource> os_noise;
  Result<RandomSource*> noise_source = NoiseSource(o, &os_noise);
  if (!noise_source.ok()) return noise_source.status();
  RandomSource& noise = **noise_source;
  CsrGraph bounded;
  const CsrGraph* graph = AggregatedGraph(in, o, &bounded);
  if (o.privacy == GapPrivacy::kNode) run.max_degree = o.max_degree;

  // Under DP-SGD (node level, finite epsilon) every step costs budget: the
  // later stages train few epochs (o.classifier_epochs, 5 by default), each
  // starting from the stage before's scores, and stage 0's head reads h_0 as
  // it is (normalising it cost 0.04 at epsilon 8 on Cora). Otherwise every
  // stage trains as long as stage 0, on its own. Only stage 0 drops inputs:
  // it reads the wide features, the later stages 16 aggregate columns, where
  // dropping half cost 0.03 without noise on Cora and 0.035 at epsilon 8 on
  // a graph of degree 16.
  const bool dp_sgd = first_sgd != nullptr;
  const int later_epochs = LaterStageEpochs(options);
  const int total_epochs = ProGapEpochs(options);
  std::vector<ProGapStage> stages;
  std::vector<Matrix> earlier;  // h_0 .. h_{k-1}, frozen
  NodeFeatures aggregate;       // stage k's input, k >= 1
  Matrix embedding, scores, base;
  for (int k = 0; k <= hops; ++k) {
    const StageInputs inputs{k == 0 ? in.features : &aggregate, &earlier, dp_sgd && k > 0 ? &base : nullptr};
    const ProGapStageConfig config{static_cast<int>(inputs.input->cols()),
                                   o.model.hidden,
                                   o.encoder_layers,
                                   o.model.head_layers,
                                   k,
                                   in.classes,
                                   k == 0 ? o.encoder_dropout : 0.0f,
                                   /*normalise=*/k > 0 || !dp_sgd};
    Result<ProGapStage> created = ProGapStage::Create(config, o.seed + static_cast<std::uint64_t>(k) * 0x9e37ULL);
    if (!created.ok()) return created.status();
    stages.push_back(std::move(created).value());
    ProGapStage& stage = stages.back();
    if (k >= 2) LDPGRAPH_RETURN_IF_ERROR(stage.CopyEncoder(stages[stages.size() - 2]));
    if (inputs.base != nullptr) stage.StartAtZero();

    const ModuleForwards forwards{
        [&](Tape& t) { return StageScores(t, stage, inputs); },
        [&](Tape& t, const std::vector<std::uint32_t>& rows) { return StageBatchScores(t, stage, inputs, rows); }};
    const int before = k == 0 ? 0 : o.encoder_epochs + (k - 1) * later_epochs;
    LDPGRAPH_RETURN_IF_ERROR(TrainModule(stage.Parameters(), forwards, in, o, k == 0 ? o.encoder_epochs : later_epochs,
                                         k == 0 ? first_sgd.get() : later_sgd.get(),
                                         o.seed ^ (0xe4c0ULL + static_cast<std::uint64_t>(k)),
                                         ModuleProgress(o, before, total_epochs), noise));
    if (o.cancel != nullptr && o.cancel->load()) return Status::FailedPrecondition("cancelled");
    Evaluate(stage, inputs, &embedding, &scores);
    const Matrix probs = Softmax(scores);
    run.stage_val_accuracy.push_back(Accuracy(probs, *in.labels, in.split.val));
    run.stage_test_accuracy.push_back(Accuracy(probs, *in.labels, in.split.test));
    base = scores;
    if (k == hops) {
      run.probabilities = probs;
      break;
    }
    Matrix unit = embedding;  // the release reads unit rows: its sensitivity
    NormaliseRows(&unit);
    Result<std::vector<Matrix>> aggregated =
        PrivateMultiHopAggregation(*graph, std::move(unit), 1, run.noise_stddev, noise);
    if (!aggregated.ok()) return aggregated.status();
    aggregate = NodeFeatures::Dense(std::move((*aggregated)[1]));
    earlier.push_back(std::move(embedding));  // joins later stages as the encoder gave it
  }
  run.mlp_test_accuracy = run.stage_test_accuracy.front();
  run.val_accuracy = run.stage_val_accuracy.back();
  run.test_accuracy = run.stage_test_accuracy.back();
  run.model = std::make_unique<GapModel>();
  run.model->encoder_config = {static_cast<int>(in.features->cols()), o.model.hidden, o.encoder_layers,
                               o.model.hidden, o.encoder_dropout, /*activate_output=*/true};
  run.model->stages = std::move(stages);
  run.model->residual = dp_sgd;
  run.model->privacy = {o.privacy, run.epsilon, run.delta, run.noise_multiplier, run.noise_stddev, run.sensitivity,
                        run.max_degree};
  run.model->node_probabilities = run.probabilities;
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return run;
}

}  // namespace ldpgraph
