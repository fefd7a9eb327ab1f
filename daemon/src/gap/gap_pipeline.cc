#include "gap/gap_pipeline.h"

#include <chrono>
#include <functional>

#include "engine/adam.h"
#include "gap/aggregation.h"
#include "privacy/discrete_gaussian.h"
#include "privacy/rdp_accountant.h"
#include "train/early_stopping.h"

namespace ldpgraph {
namespace {

// Full-batch Adam on the training rows' cross-entropy for `epochs` epochs,
// keeping the epoch of best validation accuracy (the loss breaking ties).
template <typename Model>
void TrainRows(Model* model, const std::function<Tape::Var(Tape&)>& forward, const std::vector<int>& labels,
               const Split& split, int epochs, const GapOptions& o, std::uint64_t seed) {
  AdamOptions adam_options;
  adam_options.lr = o.lr;
  adam_options.weight_decay = o.weight_decay;
  Adam adam(model->Parameters(), adam_options);
  SeededRandomSource rng(seed);
  const std::vector<int> train = Masked(labels, split.train), val = Masked(labels, split.val);
  EarlyStopping<Model> best(model, epochs + 1, 1, /*enabled=*/false);
  for (int epoch = 1; epoch <= epochs; ++epoch) {
    {
      Tape tape(true, &rng);
      Tape::Var loss = tape.SoftmaxCrossEntropy(forward(tape), &train);
      adam.ZeroGrad();
      tape.Backward(loss);
      adam.Step();
    }
    Tape eval(false, nullptr);
    const Tape::Var logits = forward(eval);
    const double val_loss = eval.value(eval.SoftmaxCrossEntropy(logits, &val))(0, 0);
    best.Update(epoch, -Accuracy(Softmax(eval.value(logits)), labels, split.val), val_loss);
  }
  best.RestoreBest();
}

}  // namespace

Result<GapRun> TrainGap(const GapInputs& in, const GapOptions& o) {
  const auto start = std::chrono::steady_clock::now();
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
  if (o.encoder_epochs < 1 || o.classifier_epochs < 1) return Status::InvalidArgument("epochs must be at least 1");

  GapRun run;
  // 1. The encoder, on features and labels alone.
  SeededRandomSource init(o.seed);
  MlpConfig encoder_config{static_cast<int>(in.features->cols()), o.model.hidden, o.encoder_layers, o.model.hidden,
                           o.encoder_dropout, /*activate_output=*/true};
  Result<Mlp> encoder = Mlp::Create(encoder_config, "gap.encoder", init);
  if (!encoder.ok()) return encoder.status();
  Result<Mlp> softmax_head = Mlp::Create({o.model.hidden, o.model.hidden, 1, in.classes, 0.0f, false}, "gap.encoder_head", init);
  if (!softmax_head.ok()) return softmax_head.status();
  struct EncoderWithHead {  // what the trainer snapshots: both parts
    Mlp* encoder;
    Mlp* head;
    std::vector<Parameter*> Parameters() {
      std::vector<Parameter*> p = encoder->Parameters();
      for (Parameter* q : head->Parameters()) p.push_back(q);
      return p;
    }
    std::vector<BatchNormStats*> Stats() { return {}; }
  } pretraining{&*encoder, &*softmax_head};
  TrainRows(&pretraining, [&](Tape& t) { return softmax_head->Forward(t, encoder->Forward(t, *in.features)); },
            *in.labels, in.split, o.encoder_epochs, o, o.seed ^ 0xe4c0ULL);
  Matrix x0;
  {
    Tape tape(false, nullptr);
    const Tape::Var embedding = encoder->Forward(tape, *in.features);
    x0 = tape.value(embedding);
    run.mlp_test_accuracy = Accuracy(Softmax(tape.value(softmax_head->Forward(tape, embedding))), *in.labels,
                                     in.split.test);
  }
  NormaliseRows(&x0);

  // 2. The private aggregates, noise calibrated for the K releases together.
  const bool undirected = IsSymmetric(*in.graph);
  const double edges = static_cast<double>(in.graph->num_entries()) / (undirected ? 2 : 1);
  run.sensitivity = RoundedSensitivity(undirected ? std::sqrt(2.0) : 1.0, o.model.hidden);
  run.delta = o.delta > 0 ? o.delta : 1 / (10 * std::max(edges, 1.0));
  if (std::isfinite(o.epsilon)) {
    const int hops = o.model.hops;
    Result<double> multiplier = CalibrateNoiseMultiplier(
        [hops](double s) { return std::vector<GaussianRelease>{{s, 1.0, hops}}; }, o.epsilon, run.delta);
    if (!multiplier.ok()) return multiplier.status();
    RdpAccountant accountant;
    LDPGRAPH_RETURN_IF_ERROR(accountant.Add({*multiplier, 1.0, hops}));
    run.noise_multiplier = *multiplier;
    run.noise_stddev = *multiplier * run.sensitivity;
    run.epsilon = *accountant.Epsilon(run.delta);
  }
  SeededRandomSource noise(o.seed ^ 0x9a9ULL);
  Result<std::vector<Matrix>> aggregates =
      PrivateMultiHopAggregation(*in.graph, std::move(x0), o.model.hops, run.noise_stddev, noise);
  if (!aggregates.ok()) return aggregates.status();

  // 3. The classifier on the aggregates.
  GapModelConfig model_config = o.model;
  model_config.classes = in.classes;
  Result<GapClassifier> classifier = GapClassifier::Create(model_config, o.seed + 1);
  if (!classifier.ok()) return classifier.status();
  auto forward = [&](Tape& t) { return classifier->Forward(t, *aggregates); };
  TrainRows(&*classifier, forward, *in.labels, in.split, o.classifier_epochs, o, o.seed ^ 0xc1a5ULL);
  Tape tape(false, nullptr);
  const Matrix probs = Softmax(tape.value(forward(tape)));
  run.val_accuracy = Accuracy(probs, *in.labels, in.split.val);
  run.test_accuracy = Accuracy(probs, *in.labels, in.split.test);
  run.encoder = std::make_unique<Mlp>(std::move(encoder).value());
  run.classifier = std::make_unique<GapClassifier>(std::move(classifier).value());
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return run;
}

}  // namespace ldpgraph
