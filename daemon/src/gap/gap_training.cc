#include "gap/gap_training.h"

#include <cstdio>
#include <functional>
#include <string>

#include "engine/adam.h"
#include "gap/aggregation.h"
#include "privacy/discrete_gaussian.h"
#include "train/early_stopping.h"

namespace ldpgraph {
namespace {

// A list of parameters as EarlyStopping snapshots a model.
struct ParameterList {
  std::vector<Parameter*> parameters;
  std::vector<Parameter*> Parameters() { return parameters; }
  std::vector<BatchNormStats*> Stats() { return {}; }
};

// Full-batch Adam on the training rows' cross-entropy for `epochs` epochs,
// keeping the epoch of best validation accuracy (the loss breaking ties).
void TrainFullBatch(ParameterList* model, const std::function<Tape::Var(Tape&)>& forward, const GapInputs& in,
                    int epochs, const GapOptions& o, std::uint64_t seed, const std::function<void(int)>& on_epoch) {
  Adam adam(model->Parameters(), AdamWith(o.lr, o.weight_decay));
  SeededRandomSource rng(seed);
  const std::vector<int> train = Masked(*in.labels, in.split.train), val = Masked(*in.labels, in.split.val);
  EarlyStopping<ParameterList> best(model, epochs + 1, 1, /*enabled=*/false);
  for (int epoch = 1; epoch <= epochs && (o.cancel == nullptr || !o.cancel->load()); ++epoch) {
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
    best.Update(epoch, -Accuracy(Softmax(eval.value(logits)), *in.labels, in.split.val), val_loss);
    if (on_epoch) on_epoch(epoch);
  }
  best.RestoreBest();
}

// DP-SGD's options for one module; progress counted in epochs (1/q steps).
DpSgdOptions SgdOptions(const GapOptions& o, const ModuleSgd& m, std::uint64_t seed,
                        std::function<void(int)> progress) {
  DpSgdOptions s;
  s.noise_multiplier = m.noise_multiplier;
  s.clip_norm = o.clip_norm;
  s.sampling_rate = m.sampling_rate;
  s.steps = m.steps;
  s.adam.lr = o.lr;
  s.adam.weight_decay = o.weight_decay;
  s.seed = seed;
  s.cancel = o.cancel;
  if (progress) {
    const double rate = m.sampling_rate;
    s.on_step = [progress, rate](std::int64_t step) {
      const auto epoch = static_cast<int>(static_cast<double>(step) * rate);
      if (epoch > static_cast<int>(static_cast<double>(step - 1) * rate)) progress(epoch);
    };
  }
  return s;
}

// The aggregation's L2 sensitivity per hop, the grid's rounding included:
// sqrt(D) at node level, sqrt 2 for an undirected edge, else 1.
double PerHopSensitivity(const GapInputs& in, const GapOptions& o) {
  const double per_edge = o.privacy == GapPrivacy::kNode ? std::sqrt(static_cast<double>(o.max_degree))
                          : IsSymmetric(*in.graph)        ? std::sqrt(2.0)
                                                          : 1.0;
  return RoundedSensitivity(per_edge, o.model.hidden);
}

// Delta for the units the level protects (DeltaOf).
double ReleaseDelta(const GapInputs& in, const GapOptions& o) {
  if (o.privacy == GapPrivacy::kNode) return DeltaOf(o, static_cast<double>(in.graph->num_nodes()));
  return DeltaOf(o, static_cast<double>(in.graph->num_entries()) / (IsSymmetric(*in.graph) ? 2 : 1));
}

// The one noise multiplier that makes `releases` (epsilon, delta)-DP
// together, and the epsilon the accountant gives them at it.
struct CalibratedNoise {
  double noise_multiplier = 0, epsilon = INFINITY;
};
// A figure for a message: 3 significant digits, exponent when it needs one.
std::string Figure(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.3g", v);
  return buf;
}

Result<CalibratedNoise> CalibrateReleases(const std::function<std::vector<GaussianRelease>(double)>& releases,
                                          double epsilon, double delta) {
  Result<double> multiplier = CalibrateNoiseMultiplier(releases, epsilon, delta);
  if (!multiplier.ok()) return multiplier.status();
  RdpAccountant accountant;
  for (const GaussianRelease& r : releases(*multiplier)) LDPGRAPH_RETURN_IF_ERROR(accountant.Add(r));
  Result<double> spent = accountant.Epsilon(delta);
  if (!spent.ok()) return spent.status();
  return CalibratedNoise{*multiplier, *spent};
}

}  // namespace

Matrix Rows(const Matrix& m, const std::vector<std::uint32_t>& rows) {
  Matrix out(static_cast<Eigen::Index>(rows.size()), m.cols());
  for (std::size_t i = 0; i < rows.size(); ++i) out.row(static_cast<Eigen::Index>(i)) = m.row(rows[i]);
  return out;
}

std::function<void(int)> ModuleProgress(const GapOptions& o, int before, int total) {
  if (!o.on_progress) return {};
  return [&o, before, total](int epoch) { o.on_progress(before + epoch, total); };
}

Status TrainModule(const std::vector<Parameter*>& parameters, const ModuleForwards& forwards, const GapInputs& in,
                   const GapOptions& o, int epochs, const ModuleSgd* sgd, std::uint64_t seed,
                   const std::function<void(int)>& progress, RandomSource& noise) {
  if (sgd != nullptr) {
    RowModel model{parameters, forwards.rows};
    return TrainDpSgd(model, *in.labels, in.split.train, SgdOptions(o, *sgd, seed, progress), noise);
  }
  ParameterList model{parameters};
  TrainFullBatch(&model, forwards.all, in, epochs, o, seed, progress);
  return Status::Ok();
}

Result<RandomSource*> NoiseSource(const GapOptions& o, std::unique_ptr<RandomSource>* os) {
  if (o.noise != nullptr) return o.noise;
  Result<std::unique_ptr<OsRandomSource>> source = OsRandomSource::Create();
  if (!source.ok()) return source.status();
  *os = std::move(source).value();
  return os->get();
}

double DeltaOf(const GapOptions& o, double units) { return o.delta > 0 ? o.delta : 1 / (10 * std::max(units, 1.0)); }

std::unique_ptr<ModuleSgd> DpSgdModule(const GapOptions& o, std::size_t training_nodes, int epochs) {
  if (o.privacy != GapPrivacy::kNode || !std::isfinite(o.epsilon)) return nullptr;
  auto m = std::make_unique<ModuleSgd>();
  m->sampling_rate = static_cast<double>(o.batch_size) / static_cast<double>(training_nodes);
  m->steps = DpSgdSteps(epochs, m->sampling_rate);
  return m;
}

Result<GapCalibration> CalibrateModules(const GapInputs& in, const GapOptions& o, int classifier_trainings) {
  GapCalibration c;
  c.sensitivity = PerHopSensitivity(in, o);
  c.delta = ReleaseDelta(in, o);
  c.encoder_sgd = DpSgdModule(o, in.split.train.size(), o.encoder_epochs);
  c.classifier_sgd = DpSgdModule(o, in.split.train.size(), o.classifier_epochs);
  if (!std::isfinite(o.epsilon)) return c;
  auto releases = [&](double s) {
    std::vector<GaussianRelease> r{{s, 1.0, o.model.hops}};
    if (c.encoder_sgd) r.push_back({s, c.encoder_sgd->sampling_rate, c.encoder_sgd->steps});
    if (c.classifier_sgd) {
      r.push_back({s, c.classifier_sgd->sampling_rate, c.classifier_sgd->steps * classifier_trainings});
    }
    return r;
  };
  Result<CalibratedNoise> noise = CalibrateReleases(releases, o.epsilon, c.delta);
  if (!noise.ok()) return noise.status();
  c.noise_multiplier = noise->noise_multiplier;
  c.noise_stddev = noise->noise_multiplier * c.sensitivity;
  c.epsilon = noise->epsilon;
  // Issue 66: a tiny epsilon asks for more noise than the release can draw
  // (node level failed after queueing), or for an accounting that rounds to
  // 0 (a model that recorded epsilon 0 and could not be loaded again).
  if (c.noise_stddev > kMaxNoiseStddev || !(c.epsilon > 0)) {
    return Status::InvalidArgument(
        "epsilon " + Figure(o.epsilon) + " needs aggregation noise of standard deviation " +
        Figure(c.noise_stddev) + ", beyond the largest a release can draw (" + Figure(kMaxNoiseStddev) +
        "): raise epsilon");
  }
  for (ModuleSgd* m : {c.encoder_sgd.get(), c.classifier_sgd.get()}) {
    if (m != nullptr) m->noise_multiplier = noise->noise_multiplier;
  }
  return c;
}

const CsrGraph* AggregatedGraph(const GapInputs& in, const GapOptions& o, CsrGraph* bounded) {
  if (o.privacy != GapPrivacy::kNode) return in.graph;
  SeededRandomSource sampler(o.seed ^ 0xde9ULL);
  *bounded = BoundDegree(*in.graph, o.max_degree, sampler);
  return bounded;
}

Result<TrainedEncoder> TrainEncoder(const GapInputs& in, const GapOptions& o, int total_epochs, const ModuleSgd* sgd,
                                    RandomSource& noise) {
  SeededRandomSource init(o.seed);
  MlpConfig config{static_cast<int>(in.features->cols()), o.model.hidden, o.encoder_layers, o.model.hidden,
                   o.encoder_dropout, /*activate_output=*/true};
  Result<Mlp> mlp = Mlp::Create(config, "gap.encoder", init);
  if (!mlp.ok()) return mlp.status();
  Result<Mlp> head = Mlp::Create({o.model.hidden, o.model.hidden, 1, in.classes, 0.0f, false}, "gap.encoder_head", init);
  if (!head.ok()) return head.status();
  TrainedEncoder e{std::move(mlp).value(), std::move(head).value()};
  std::vector<Parameter*> parameters = e.mlp.Parameters();
  for (Parameter* p : e.head.Parameters()) parameters.push_back(p);
  const ModuleForwards forwards{
      [&](Tape& t) { return e.head.Forward(t, e.mlp.Forward(t, *in.features)); },
      [&](Tape& t, const std::vector<std::uint32_t>& rows) {
        return e.head.Forward(t, e.mlp.Forward(t, *t.Own(in.features->Rows(rows))));
      }};
  LDPGRAPH_RETURN_IF_ERROR(TrainModule(parameters, forwards, in, o, o.encoder_epochs, sgd, o.seed ^ 0xe4c0ULL,
                                       ModuleProgress(o, 0, total_epochs), noise));
  return e;
}

Result<TrainedClassifier> TrainClassifier(const GapInputs& in, const GapOptions& o, int epochs, int epochs_before,
                                          const std::vector<Matrix>& aggregates, const Matrix* base_logits,
                                          const ModuleSgd* sgd, RandomSource& noise) {
  GapModelConfig config = o.model;
  config.classes = in.classes;
  Result<GapClassifier> created = GapClassifier::Create(config, o.seed + 1);
  if (!created.ok()) return created.status();
  TrainedClassifier c{std::move(created).value(), Matrix(), 0};
  GapClassifier& classifier = c.classifier;
  if (base_logits != nullptr) {
    std::vector<Parameter*> params = classifier.Parameters();
    for (std::size_t k = params.size() - 2; k < params.size(); ++k) params[k]->value.setZero();  // the head's last layer
  }
  auto forward = [&](Tape& t) {
    const Tape::Var scores = classifier.Forward(t, aggregates);
    return base_logits == nullptr ? scores : t.Add(scores, t.ConstantView(base_logits));
  };
  const ModuleForwards forwards{forward, [&](Tape& t, const std::vector<std::uint32_t>& rows) {
                                  std::vector<Tape::Var> batch;
                                  for (const Matrix& a : aggregates) batch.push_back(t.Constant(Rows(a, rows)));
                                  const Tape::Var scores = classifier.Forward(t, batch);
                                  return base_logits == nullptr ? scores
                                                                : t.Add(scores, t.Constant(Rows(*base_logits, rows)));
                                }};
  LDPGRAPH_RETURN_IF_ERROR(TrainModule(classifier.Parameters(), forwards, in, o, epochs, sgd, o.seed ^ 0xc1a5ULL,
                                       ModuleProgress(o, epochs_before, epochs_before + epochs), noise));
  Tape tape(false, nullptr);
  c.probs = Softmax(tape.value(forward(tape)));
  c.val_accuracy = Accuracy(c.probs, *in.labels, in.split.val);
  return c;
}

}  // namespace ldpgraph
