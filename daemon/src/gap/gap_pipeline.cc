#include "gap/gap_pipeline.h"

#include <chrono>
#include <functional>

#include "engine/adam.h"
#include "gap/aggregation.h"
#include "privacy/discrete_gaussian.h"
#include "privacy/rdp_accountant.h"
#include "train/dp_sgd.h"
#include "train/early_stopping.h"

namespace ldpgraph {
namespace {

// The encoder and its softmax head, trained (and snapshotted) as one model.
struct EncoderWithHead {
  Mlp* encoder;
  Mlp* head;
  std::vector<Parameter*> Parameters() {
    std::vector<Parameter*> p = encoder->Parameters();
    for (Parameter* q : head->Parameters()) p.push_back(q);
    return p;
  }
  std::vector<BatchNormStats*> Stats() { return {}; }
};

// Full-batch Adam on the training rows' cross-entropy for `epochs` epochs,
// keeping the epoch of best validation accuracy (the loss breaking ties).
template <typename Model>
void TrainRows(Model* model, const std::function<Tape::Var(Tape&)>& forward, const std::vector<int>& labels,
               const Split& split, int epochs, const GapOptions& o, std::uint64_t seed,
               const std::function<void(int)>& on_epoch) {
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
    if (on_epoch) on_epoch(epoch);
  }
  best.RestoreBest();
}

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
  if (o.encoder_epochs < 1 || o.classifier_epochs < 1) return Status::InvalidArgument("epochs must be at least 1");
  if (in.split.train.empty()) return Status::InvalidArgument("GAP needs at least one training node");
  if (o.privacy == GapPrivacy::kNode) {
    if (o.max_degree < 1) return Status::InvalidArgument("the degree bound D must be at least 1");
    if (o.batch_size < 1 || static_cast<std::size_t>(o.batch_size) > in.split.train.size()) {
      return Status::InvalidArgument("the DP-SGD batch size must be in [1, training nodes = " +
                                     std::to_string(in.split.train.size()) + "]");
    }
    if (!(o.clip_norm > 0) || !std::isfinite(o.clip_norm)) {
      return Status::InvalidArgument("the clipping norm must be positive and finite");
    }
    if (!IsSymmetric(*in.graph)) return Status::InvalidArgument("node-level GAP needs an undirected graph");
  }
  return Status::Ok();
}

namespace {

// Progress of one module, whose epochs come after `before` of the total, as
// GapOptions::on_progress wants it.
std::function<void(int)> ModuleProgress(const GapOptions& o, int before) {
  if (!o.on_progress) return {};
  const int total = o.encoder_epochs + o.classifier_epochs;
  return [&o, before, total](int epoch) { o.on_progress(before + epoch, total); };
}

// DP-SGD for one module under node-level DP; progress counted in epochs
// (1 / q steps each).
DpSgdOptions ModuleSgd(const GapOptions& o, double multiplier, double rate, std::int64_t steps, std::uint64_t seed,
                       int epochs_before) {
  DpSgdOptions s;
  s.noise_multiplier = multiplier;
  s.clip_norm = o.clip_norm;
  s.sampling_rate = rate;
  s.steps = steps;
  s.adam.lr = o.lr;
  s.adam.weight_decay = o.weight_decay;
  s.seed = seed;
  if (std::function<void(int)> progress = ModuleProgress(o, epochs_before)) {
    s.on_step = [progress, rate](std::int64_t step) {
      const auto epoch = static_cast<int>(static_cast<double>(step) * rate);
      if (epoch > static_cast<int>(static_cast<double>(step - 1) * rate)) progress(epoch);
    };
  }
  return s;
}

// An MLP's class scores for a batch of nodes' features.
Tape::Var ScoreRows(Tape& tape, Mlp& encoder, Mlp& head, const NodeFeatures& features,
                    const std::vector<std::uint32_t>& rows) {
  return head.Forward(tape, encoder.Forward(tape, *tape.Own(features.Rows(rows))));
}

struct Encoder {
  Mlp mlp, head;
};

// The encoder with its softmax head, trained on features and labels alone:
// by DP-SGD with `sgd` (node level), full batch otherwise.
Result<Encoder> TrainEncoder(const GapInputs& in, const GapOptions& o, const DpSgdOptions* sgd, RandomSource& noise) {
  SeededRandomSource init(o.seed);
  MlpConfig config{static_cast<int>(in.features->cols()), o.model.hidden, o.encoder_layers, o.model.hidden,
                   o.encoder_dropout, /*activate_output=*/true};
  Result<Mlp> mlp = Mlp::Create(config, "gap.encoder", init);
  if (!mlp.ok()) return mlp.status();
  Result<Mlp> head = Mlp::Create({o.model.hidden, o.model.hidden, 1, in.classes, 0.0f, false}, "gap.encoder_head", init);
  if (!head.ok()) return head.status();
  Encoder e{std::move(mlp).value(), std::move(head).value()};
  EncoderWithHead both{&e.mlp, &e.head};
  if (sgd != nullptr) {
    RowModel model{both.Parameters(), [&](Tape& t, const std::vector<std::uint32_t>& rows) {
                     return ScoreRows(t, e.mlp, e.head, *in.features, rows);
                   }};
    LDPGRAPH_RETURN_IF_ERROR(TrainDpSgd(model, *in.labels, in.split.train, *sgd, noise));
  } else {
    TrainRows(&both, [&](Tape& t) { return e.head.Forward(t, e.mlp.Forward(t, *in.features)); }, *in.labels,
              in.split, o.encoder_epochs, o, o.seed ^ 0xe4c0ULL, ModuleProgress(o, 0));
  }
  return e;
}

// The options' noise source, or the OS CSPRNG (held in *os).
Result<RandomSource*> NoiseSource(const GapOptions& o, std::unique_ptr<RandomSource>* os) {
  if (o.noise != nullptr) return o.noise;
  Result<std::unique_ptr<OsRandomSource>> source = OsRandomSource::Create();
  if (!source.ok()) return source.status();
  *os = std::move(source).value();
  return os->get();
}

struct Accounting {
  double rate = 1;
  std::int64_t encoder_steps = 0, classifier_steps = 0;
};

}  // namespace

Result<GapRun> TrainGap(const GapInputs& in, const GapOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  LDPGRAPH_RETURN_IF_ERROR(ValidateGap(in, o));
  std::unique_ptr<RandomSource> os_noise;
  Result<RandomSource*> noise_source = NoiseSource(o, &os_noise);
  if (!noise_source.ok()) return noise_source.status();
  RandomSource& noise = **noise_source;
  const bool node_level = o.privacy == GapPrivacy::kNode;
  const bool dp_sgd = node_level && std::isfinite(o.epsilon);

  GapRun run;
  run.privacy = o.privacy;
  // The graph the aggregations read: at node level, every degree bounded.
  CsrGraph bounded;
  const CsrGraph* graph = in.graph;
  double edge_sensitivity = 1;
  if (node_level) {
    SeededRandomSource sampler(o.seed ^ 0xde9ULL);
    bounded = BoundDegree(*in.graph, o.max_degree, sampler);
    graph = &bounded;
    run.max_degree = o.max_degree;
    edge_sensitivity = std::sqrt(static_cast<double>(o.max_degree));
  } else if (IsSymmetric(*in.graph)) {
    edge_sensitivity = std::sqrt(2.0);
  }
  run.sensitivity = RoundedSensitivity(edge_sensitivity, o.model.hidden);
  const double units = node_level ? static_cast<double>(in.graph->num_nodes())
                                  : static_cast<double>(in.graph->num_entries()) / (edge_sensitivity > 1 ? 2 : 1);
  run.delta = o.delta > 0 ? o.delta : 1 / (10 * std::max(units, 1.0));

  // One noise multiplier for every release, calibrated for them together.
  Accounting acc;
  if (dp_sgd) {
    acc.rate = static_cast<double>(o.batch_size) / static_cast<double>(in.split.train.size());
    acc.encoder_steps = DpSgdSteps(o.encoder_epochs, acc.rate);
    acc.classifier_steps = DpSgdSteps(o.classifier_epochs, acc.rate);
    run.dp_sgd_steps = acc.encoder_steps + acc.classifier_steps;
  }
  const int hops = o.model.hops;
  auto releases = [&](double s) {
    std::vector<GaussianRelease> r{{s, 1.0, hops}};
    if (dp_sgd) {
      r.push_back({s, acc.rate, acc.encoder_steps});
      r.push_back({s, acc.rate, acc.classifier_steps});
    }
    return r;
  };
  if (std::isfinite(o.epsilon)) {
    Result<double> multiplier = CalibrateNoiseMultiplier(releases, o.epsilon, run.delta);
    if (!multiplier.ok()) return multiplier.status();
    RdpAccountant accountant;
    for (const GaussianRelease& r : releases(*multiplier)) LDPGRAPH_RETURN_IF_ERROR(accountant.Add(r));
    run.noise_multiplier = *multiplier;
    run.noise_stddev = *multiplier * run.sensitivity;
    run.epsilon = *accountant.Epsilon(run.delta);
  }

  // 1. The encoder, on features and labels alone.
  const DpSgdOptions encoder_sgd =
      ModuleSgd(o, run.noise_multiplier, acc.rate, acc.encoder_steps, o.seed ^ 0xe4c0ULL, 0);
  Result<Encoder> encoder = TrainEncoder(in, o, dp_sgd ? &encoder_sgd : nullptr, noise);
  if (!encoder.ok()) return encoder.status();
  Matrix x0;
  {
    Tape tape(false, nullptr);
    const Tape::Var embedding = encoder->mlp.Forward(tape, *in.features);
    x0 = tape.value(embedding);
    run.mlp_test_accuracy = Accuracy(Softmax(tape.value(encoder->head.Forward(tape, embedding))), *in.labels,
                                     in.split.test);
  }
  NormaliseRows(&x0);

  // 2. The private aggregates.
  Result<std::vector<Matrix>> aggregates = PrivateMultiHopAggregation(*graph, std::move(x0), hops, run.noise_stddev,
                                                                      noise);
  if (!aggregates.ok()) return aggregates.status();

  // 3. The classifier on the aggregates.
  GapModelConfig model_config = o.model;
  model_config.classes = in.classes;
  Result<GapClassifier> classifier = GapClassifier::Create(model_config, o.seed + 1);
  if (!classifier.ok()) return classifier.status();
  if (dp_sgd) {
    RowModel model{classifier->Parameters(), [&](Tape& t, const std::vector<std::uint32_t>& rows) {
                     std::vector<Tape::Var> batch;
                     for (const Matrix& a : *aggregates) {
                       Matrix picked(static_cast<Eigen::Index>(rows.size()), a.cols());
                       for (std::size_t i = 0; i < rows.size(); ++i) {
                         picked.row(static_cast<Eigen::Index>(i)) = a.row(rows[i]);
                       }
                       batch.push_back(t.Constant(std::move(picked)));
                     }
                     return classifier->Forward(t, batch);
                   }};
    LDPGRAPH_RETURN_IF_ERROR(TrainDpSgd(
        model, *in.labels, in.split.train,
        ModuleSgd(o, run.noise_multiplier, acc.rate, acc.classifier_steps, o.seed ^ 0xc1a5ULL, o.encoder_epochs),
        noise));
  } else {
    TrainRows(&*classifier, [&](Tape& t) { return classifier->Forward(t, *aggregates); }, *in.labels, in.split,
              o.classifier_epochs, o, o.seed ^ 0xc1a5ULL, ModuleProgress(o, o.encoder_epochs));
  }
  Tape tape(false, nullptr);
  Matrix probs = Softmax(tape.value(classifier->Forward(tape, *aggregates)));
  run.val_accuracy = Accuracy(probs, *in.labels, in.split.val);
  run.test_accuracy = Accuracy(probs, *in.labels, in.split.test);
  run.model = std::make_unique<GapModel>();
  run.model->encoder_config = encoder->mlp.config();
  run.model->encoder = std::move(encoder->mlp);
  run.model->classifier = std::move(classifier).value();
  run.model->privacy = {o.privacy, run.epsilon, run.delta, run.noise_multiplier, run.noise_stddev, run.sensitivity,
                        run.max_degree};
  run.model->node_probabilities = std::move(probs);
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return run;
}

Result<double> TrainPrivateMlp(const GapInputs& in, const GapOptions& o) {
  LDPGRAPH_RETURN_IF_ERROR(ValidateGap(in, o));
  std::unique_ptr<RandomSource> os_noise;
  Result<RandomSource*> noise_source = NoiseSource(o, &os_noise);
  if (!noise_source.ok()) return noise_source.status();
  RandomSource& noise = **noise_source;
  DpSgdOptions sgd;
  const bool private_run = std::isfinite(o.epsilon);
  if (private_run) {
    const double rate = static_cast<double>(o.batch_size) / static_cast<double>(in.split.train.size());
    const std::int64_t steps = DpSgdSteps(o.encoder_epochs, rate);
    const double delta = o.delta > 0 ? o.delta : 1 / (10 * std::max<double>(in.graph->num_nodes(), 1.0));
    Result<double> multiplier = CalibrateNoiseMultiplier(
        [&](double s) { return std::vector<GaussianRelease>{{s, rate, steps}}; }, o.epsilon, delta);
    if (!multiplier.ok()) return multiplier.status();
    sgd = ModuleSgd(o, *multiplier, rate, steps, o.seed ^ 0xe4c0ULL, 0);
  }
  Result<Encoder> e = TrainEncoder(in, o, private_run ? &sgd : nullptr, noise);
  if (!e.ok()) return e.status();
  Tape tape(false, nullptr);
  const Tape::Var scores = e->head.Forward(tape, e->mlp.Forward(tape, *in.features));
  return Accuracy(Softmax(tape.value(scores)), *in.labels, in.split.test);
}

}  // namespace ldpgraph
