#include "train/lpgnn_pipeline.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "engine/permute_rows.h"
#include "graph/graph_batch.h"
#include "ldpgraph/label_rr.h"
#include "train/label_reference.h"
#include "util/named_values.h"

namespace ldpgraph {
namespace {

// Drop's training targets: the argmax of KProp_ky of the one-hot labels, the
// rows of `hidden` zeroed first (their labels are not used); -1 where
// nothing propagated.
std::vector<int> PropagatedTargets(const std::vector<int>& labels, const std::vector<std::uint32_t>& hidden,
                                   const PreparedGraph& graph, int steps, int classes) {
  if (steps == 0) return labels;
  return std::move(PropagatedLabels(labels, hidden, graph, {steps}, classes).front());
}

std::vector<int> Increasing(std::vector<int> values) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return values;
}

// How many users outside the test split each list names per class (-1:
// none), and how many it names at all.
std::vector<double> ClassCounts(const std::vector<int>& labels, const std::vector<char>& is_test, int classes,
                                double* total) {
  std::vector<double> counts(static_cast<std::size_t>(classes), 0.0);
  *total = 0;
  for (std::size_t i = 0; i < labels.size(); ++i) {
    if (is_test[i] || labels[i] < 0) continue;
    counts[static_cast<std::size_t>(labels[i])] += 1;
    *total += 1;
  }
  return counts;
}

// Each class's share of the true labels, estimated from the randomized ones
// outside the test split by inverting RR (`keep`: P(label kept), `flip`:
// P(one given other label)), clipped at 0.
std::vector<double> EstimatedClassShares(const std::vector<int>& labels, const std::vector<char>& is_test,
                                         int classes, double keep, double flip) {
  double known = 0;
  std::vector<double> share = ClassCounts(labels, is_test, classes, &known);
  for (double& s : share) s = known > 0 ? std::max(0.0, (s / known - flip) / (keep - flip)) : 0.0;
  return share;
}

// Whether a propagated reference still names every class for at least
// kLeastClassShare of the users its estimated share implies. Propagation
// converges to the graph's top eigenvector, which gives every user the
// same class: a reference that far gone rewards a constant model.
constexpr double kLeastClassShare = 0.25;
constexpr double kClassesTooRareToJudge = 0.02;  // estimated shares below this are not checked

bool KeepsEveryClass(const std::vector<int>& reference, const std::vector<char>& is_test,
                     const std::vector<double>& shares) {
  double total = 0;
  const std::vector<double> named = ClassCounts(reference, is_test, static_cast<int>(shares.size()), &total);
  for (std::size_t c = 0; c < shares.size(); ++c) {
    if (shares[c] >= kClassesTooRareToJudge && named[c] < kLeastClassShare * shares[c] * total) return false;
  }
  return total > 0;
}

// The share of `users` whose label in `reference` is `c`.
double ShareOf(const std::vector<int>& reference, const std::vector<std::uint32_t>& users, int c) {
  std::size_t hits = 0;
  for (std::uint32_t u : users) hits += reference[u] == c;
  return users.empty() ? 0 : static_cast<double>(hits) / static_cast<double>(users.size());
}

// Replaces `best` by the class prior when the prior validates above it:
// the same model config (answering constant scores, the log of each
// class's estimated share outside the test split, `shares`), on kx = 0
// inputs.
Status ConsiderPrior(const LpgnnInputs& in, const std::vector<double>& shares, const std::vector<int>& val_reference,
                     const std::vector<int>& test_labels, LpgnnRun* best) {
  const int majority = static_cast<int>(std::max_element(shares.begin(), shares.end()) - shares.begin());
  const double val_accuracy = ShareOf(val_reference, in.split.val, majority);
  if (!(val_accuracy > best->val_accuracy)) return Status::Ok();
  double total = 0;
  for (double s : shares) total += s;
  if (!(total > 0)) return Status::Ok();
  std::vector<float> scores(static_cast<std::size_t>(in.classes));
  for (int c = 0; c < in.classes; ++c) {
    // Clipped shares: a class estimated absent keeps a tiny probability.
    scores[static_cast<std::size_t>(c)] = static_cast<float>(std::log(std::max(shares[c] / total, 1e-6)));
  }
  NodeGnnConfig config = best->model->config();
  config.input_dim = static_cast<int>(in.features->cols());
  config.kprop_steps = 0;
  Result<NodeGnnModel> prior = NodeGnnModel::Create(config, 0);
  if (!prior.ok()) return prior.status();
  prior->SetConstantScores(scores);
  best->model = std::make_unique<NodeGnnModel>(std::move(prior).value());
  best->prior = true;
  best->kx = best->ky = 0;
  best->val_accuracy = val_accuracy;
  best->test_accuracy = ShareOf(test_labels, in.split.test, majority);
  return Status::Ok();
}

}  // namespace

constexpr NamedValue<ValidationReference> kValidationReferences[] = {
    {ValidationReference::kPropagated, "propagated"},
    {ValidationReference::kNoisy, "noisy"},
    {ValidationReference::kEstimated, "estimated"}};

const char* ValidationReferenceName(ValidationReference reference) {
  return NameIn(kValidationReferences, reference);
}

Result<ValidationReference> ParseValidationReference(const std::string& name) {
  return ParseIn(kValidationReferences, name, "validation reference");
}

constexpr NamedValue<LabelMethod> kLabelMethods[] = {
    {LabelMethod::kCrossEntropy, "ce"}, {LabelMethod::kForwardCorrection, "fc"}, {LabelMethod::kDrop, "drop"}};

const char* LabelMethodName(LabelMethod method) { return NameIn(kLabelMethods, method); }

Result<LabelMethod> ParseLabelMethod(const std::string& name) { return ParseIn(kLabelMethods, name, "label method"); }

// Row by row: a row-major matrix read down its columns misses the cache on
// every element (15% of a training on 22,470 x 4,714 features). Each
// column's sums still add its rows in order, so the result is the same to
// the bit as a column at a time.
void StandardiseColumns(Matrix* x) {
  if (x->rows() == 0) return;
  const auto d = static_cast<std::size_t>(x->cols());
  ColumnStandardisation s;
  s.mean.assign(d, 0.0);
  s.scale.assign(d, 0.0);
  StandardiseBlockColumns(*x, 0, &s);
  for (Eigen::Index r = 0; r < x->rows(); ++r) {
    float* row = x->row(r).data();
    for (std::size_t c = 0; c < d; ++c) row[c] = static_cast<float>((row[c] - s.mean[c]) * s.scale[c]);
  }
}

PropagatedInputs::PropagatedInputs(const NodeFeatures& features, const PreparedGraph& mean, bool rectified,
                                   std::vector<int> planned_steps, std::int64_t packed_bytes)
    : features_(features),
      mean_(mean),
      rectified_(rectified),
      planned_steps_(Increasing(std::move(planned_steps))),
      packed_bytes_(packed_bytes) {
  // Borrowed: the caller keeps `mean` alive (NodeModelInputs copies them out).
  p_ = std::shared_ptr<const SparseMatrix>(&mean_.agg, [](const SparseMatrix*) {});
  p_t_ = std::shared_ptr<const SparseMatrix>(&mean_.agg_t, [](const SparseMatrix*) {});
}

bool PropagatedInputs::Packs(int steps) const {
  const FactoredFeatures& x = features_.factored();
  return steps > 0 && PackedProductsFast() && PackedRows::BytesFor(x.rows(), x.cols()) <= packed_bytes_;
}

const NodeFeatures& PropagatedInputs::AtFactored(int steps) {
  if (Packs(steps)) {
    current_ = NodeFeatures();  // the last inputs' packed values go before these are made
    current_ = NodeFeatures::Factored(PropagatePacked(features_.factored(), p_, p_t_, steps, rectified_));
    return current_;
  }
  if (!rectified_) {
    current_ = NodeFeatures::Factored(PropagateFactored(features_.factored(), p_, p_t_, steps, nullptr));
    return current_;
  }
  auto found = [&] {
    return std::find_if(standardisations_.begin(), standardisations_.end(),
                        [steps](const auto& s) { return s.first == steps; });
  };
  if (found() == standardisations_.end()) {
    // This step and every later planned one, in one pass over the columns.
    std::vector<int> todo = {steps};
    for (int k : planned_steps_) {
      if (k > steps) todo.push_back(k);
    }
    std::vector<ColumnStandardisation> made = PropagatedStandardisations(features_.factored(), mean_.agg, todo);
    standardisations_.clear();
    for (std::size_t i = 0; i < todo.size(); ++i) standardisations_.emplace_back(todo[i], std::move(made[i]));
  }
  const auto it = found();
  current_ = NodeFeatures::Factored(PropagateFactored(features_.factored(), p_, p_t_, steps, &it->second));
  standardisations_.erase(standardisations_.begin(), it + 1);  // steps only increase
  return current_;
}

const NodeFeatures& PropagatedInputs::At(int steps) {
  if (steps == 0 && !rectified_) return features_;
  if (features_.is_factored() && features_.factored().steps == 0) return AtFactored(steps);
  // The last propagated state: handed out as it is for true features, so it
  // may be in current_.
  Matrix state = state_in_current_ ? std::move(*current_.mutable_dense()) : std::move(propagated_);
  Matrix next;
  for (; steps_ < steps; ++steps_) {
    if (steps_ > 0) {
      SpMM(mean_.agg, state, &next);
      state.swap(next);
    } else if (features_.is_sparse()) {
      SpMM(mean_.agg, features_.sparse(), &state);
    } else {
      SpMM(mean_.agg, features_.dense(), &state);
    }
  }
  next = Matrix();
  state_in_current_ = !rectified_;
  if (state_in_current_) {
    current_ = NodeFeatures::Dense(std::move(state));
    return current_;
  }
  Matrix inputs = steps == 0 ? features_.ToDense() : state;  // standardised apart from the state
  StandardiseColumns(&inputs);
  propagated_ = std::move(state);
  current_ = NodeFeatures::Dense(std::move(inputs));
  return current_;
}

NodeFeatures NodeModelInputs(const CsrGraph& graph, const NodeFeatures& features, int steps, bool rectified) {
  const PreparedGraph mean = PrepareGraph(graph, Aggregation::kMean);
  PropagatedInputs inputs(features, mean, rectified);
  NodeFeatures x = inputs.At(steps);
  if (!x.is_factored() || x.factored().steps == 0) return x;
  // Its propagation is `mean`'s, which ends here: copied to live on.
  FactoredFeatures f = x.factored();
  f.propagation = std::make_shared<const SparseMatrix>(mean.agg);
  f.propagation_t = std::make_shared<const SparseMatrix>(mean.agg_t);
  return NodeFeatures::Factored(std::move(f));
}

int LpgnnTrainings(const LpgnnOptions& o) {
  const auto kx = Increasing(o.kx_choices).size(), ky = Increasing(o.ky_choices).size();
  return static_cast<int>(kx + (o.label_method == LabelMethod::kDrop && ky > 1 ? ky - 1 : 0));
}

namespace {

// TrainLpgnn on the users renumbered by `p`, each keeping what is hers.
Result<LpgnnRun> TrainRenumbered(const LpgnnInputs& in, const LpgnnOptions& o, const NodePermutation& p) {
  std::vector<float> weights;
  const CsrGraph graph = PermuteGraph(*in.graph, p, in.edge_weights, &weights);
  const NodeFeatures features = PermuteRows(*in.features, p.old_of_new);
  const std::vector<int> labels = PermuteValues(*in.labels, p);
  const std::vector<int> test_labels = in.test_labels != nullptr ? PermuteValues(*in.test_labels, p) : labels;
  LpgnnInputs moved = in;
  moved.graph = &graph;
  moved.edge_weights = in.edge_weights != nullptr ? &weights : nullptr;
  moved.features = &features;
  moved.labels = &labels;
  moved.test_labels = in.test_labels != nullptr ? &test_labels : nullptr;
  moved.split = {RenumberIds(in.split.train, p), RenumberIds(in.split.val, p), RenumberIds(in.split.test, p)};
  LpgnnOptions as_they_are = o;
  as_they_are.node_order = NodeOrder::kAsGiven;
  as_they_are.train.row_ids = &p.old_of_new;
  return TrainLpgnn(moved, as_they_are);
}

bool InRange(const Split& split, std::size_t n) {
  for (const std::vector<std::uint32_t>* ids : {&split.train, &split.val, &split.test}) {
    for (std::uint32_t id : *ids) {
      if (id >= n) return false;
    }
  }
  return true;
}

}  // namespace

Result<LpgnnRun> TrainLpgnn(const LpgnnInputs& in, const LpgnnOptions& o) {
  if (in.graph == nullptr || in.features == nullptr || in.labels == nullptr) {
    return Status::InvalidArgument("LPGNN needs a graph, features and labels");
  }
  const auto n = static_cast<std::size_t>(in.graph->num_nodes());
  if (static_cast<std::size_t>(in.features->rows()) != n || in.labels->size() != n ||
      (in.test_labels != nullptr && in.test_labels->size() != n)) {
    return Status::InvalidArgument("graph, features and labels disagree on the number of nodes");
  }
  if (o.node_order != NodeOrder::kAsGiven && static_cast<std::int64_t>(n) >= o.node_order_from &&
      in.graph->num_entries() > 0 && o.train.row_ids == nullptr && InRange(in.split, n) &&
      (in.edge_weights == nullptr || in.edge_weights->size() == in.graph->num_entries())) {
    return TrainRenumbered(in, o, OrderNodes(*in.graph, o.node_order));
  }
  if (o.kx_choices.empty()) return Status::InvalidArgument("no feature KProp steps to choose from");
  if (o.label_method == LabelMethod::kDrop && o.ky_choices.empty()) {
    return Status::InvalidArgument("no label KProp steps to choose from");
  }
  // KProp: features by the mean over neighbours; labels (and Drop's
  // propagated predictions) by D^-1/2 A D^-1/2 as LPGNN's code does. On
  // Cora at label epsilon 1 the latter recovers more labels (argmax after 8
  // steps right for 64% of training nodes vs 59% with the mean) and Drop's
  // test accuracy follows (0.68 vs 0.62 on split 0); for features the mean
  // did as well or better.
  if (in.edge_weights != nullptr && in.edge_weights->size() != in.graph->num_entries()) {
    return Status::InvalidArgument("the edge weights do not match the graph's entries");
  }
  const PreparedGraph model_graph = PrepareGraph(*in.graph, in.edge_weights, AggregationFor(o.kind));
  const PreparedGraph prop_graph = PrepareGraph(*in.graph, in.edge_weights, Aggregation::kMean);
  const PreparedGraph label_graph = PrepareGraph(*in.graph, in.edge_weights, Aggregation::kSymNoSelf);

  const bool private_labels = std::isfinite(in.label_epsilon);
  Matrix transition;
  double keep = 1, flip = 0;  // RR's P(label kept) and P(one given other label)
  if (private_labels) {
    Result<LabelRandomizer> rr = LabelRandomizer::Create(static_cast<std::uint32_t>(in.classes), in.label_epsilon);
    if (!rr.ok()) return rr.status();
    keep = rr->TransitionProbability(0, 0);
    flip = rr->TransitionProbability(0, 1);
    transition.resize(in.classes, in.classes);
    for (int a = 0; a < in.classes; ++a) {
      for (int b = 0; b < in.classes; ++b) {
        transition(a, b) = static_cast<float>(
            rr->TransitionProbability(static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(b)));
      }
    }
  }
  const bool corrected = private_labels && o.label_method != LabelMethod::kCrossEntropy;
  const bool drop = o.label_method == LabelMethod::kDrop;
  const std::vector<int>& labels = *in.labels;
  const std::vector<int>& test_labels = in.test_labels != nullptr ? *in.test_labels : labels;
  // Raw randomized-response labels (31% correct at epsilon 1 on Cora) rank
  // the candidates almost at random; denoised ones are far cleaner. The
  // longest label KProp of the choices that still keeps every class: on a
  // well-mixed graph longer ones collapse to one class (a 22,470-user SBM,
  // 4 classes, label epsilon 1: argmax right for 0.69, 0.86, 0.40, 0.25 of
  // users after 2, 4, 8, 16 steps, the last all one class; GraphSAGE then
  // chose kx 0 and scored 0.25-0.29). On Cora every class keeps at least
  // 0.45 of its share at 16 steps (label epsilon 0.5-2), so 16 stands.
  LpgnnRun best;
  best.val_accuracy = -1;
  std::vector<int> val_reference = labels;
  // Each class's share outside the test split (by inverting RR when the
  // labels are randomized): what a propagated reference must keep naming,
  // and the class prior's scores.
  std::vector<char> is_test(n, 0);
  for (std::uint32_t t : in.split.test) is_test[t] = 1;
  const std::vector<double> shares = EstimatedClassShares(labels, is_test, in.classes, keep, flip);
  if (private_labels && o.validation_reference != ValidationReference::kNoisy) {
    std::vector<int> steps = Increasing(o.ky_choices);
    steps.erase(std::remove_if(steps.begin(), steps.end(), [](int k) { return k <= 0; }), steps.end());
    std::vector<std::vector<int>> references = PropagatedLabels(labels, in.split.test, label_graph, steps, in.classes);
    if (o.validation_reference == ValidationReference::kPropagated) {
      for (std::size_t k = steps.size(); k-- > 0;) {
        if (!KeepsEveryClass(references[k], is_test, shares)) continue;
        val_reference = std::move(references[k]);
        best.reference_steps = steps[k];
        break;
      }
    } else {
      // The raw labels are right with Pr keep; a propagation must beat that.
      const std::vector<double> estimated =
          EstimatedReferenceAccuracy(labels, in.split.test, label_graph, steps, in.classes, keep, flip, o.seed);
      double best_estimate = keep;
      std::size_t chosen = steps.size();
      for (std::size_t k = 0; k < steps.size(); ++k) {
        if (estimated[k] > best_estimate && KeepsEveryClass(references[k], is_test, shares)) {
          best_estimate = estimated[k];
          chosen = k;
        }
      }
      if (chosen < steps.size()) {
        val_reference = std::move(references[chosen]);
        best.reference_steps = steps[chosen];
      }
    }
    // Where nothing propagated (an isolated node, or no edges at all) the
    // node's own label stands: without it an edge-free model would be
    // judged against no label and kept at its first epoch.
    for (std::size_t i = 0; i < n; ++i) {
      if (val_reference[i] < 0) val_reference[i] = labels[i];
    }
  }

  // The users whose labels Drop's label KProp leaves out.
  std::vector<std::uint32_t> hidden_labels = in.split.test;
  if (!o.propagate_validation_labels) {
    hidden_labels.insert(hidden_labels.end(), in.split.val.begin(), in.split.val.end());
  }
  const std::string trainings = std::to_string(LpgnnTrainings(o));
  int started = 0;
  auto train = [&](const NodeFeatures& x, int kx, int ky) -> Status {
    const std::string where = "training " + std::to_string(++started) + "/" + trainings + " (kx " +
                              std::to_string(kx) + ", ky " + std::to_string(ky) + ") epoch ";
    std::function<void(const EpochReport&)> on_epoch;
    if (o.on_progress) on_epoch = [&](const EpochReport& r) { o.on_progress(where + std::to_string(r.epoch)); };
    NodeGnnConfig config;
    config.kind = o.kind;
    config.input_dim = static_cast<int>(x.cols());
    config.hidden = o.hidden;
    config.dropout = o.dropout;
    config.classes = in.classes;
    Result<NodeGnnModel> model = NodeGnnModel::Create(config, o.seed);
    if (!model.ok()) return model.status();
    NodeTrainOptions t = o.train;
    t.seed = o.seed;
    t.transition = corrected ? &transition : nullptr;
    t.label_steps = ky;
    t.label_graph = &label_graph;
    if (private_labels && ky > 0) {  // Drop's stopping rule (Acc*)
      t.noisy_train_labels = &labels;
      const double e = std::exp(in.label_epsilon);
      t.noisy_accuracy_ceiling = e / (e + in.classes - 1);
    }
    const std::vector<int> targets = PropagatedTargets(labels, hidden_labels, label_graph, ky, in.classes);
    NodeLabelSets sets{&targets, &targets, &val_reference, &test_labels};
    NodeTrainResult r = TrainNodeClassifier(&*model, model_graph, x, sets, in.split, t, on_epoch);
    if (r.val.accuracy > best.val_accuracy) {
      best.kx = kx;
      best.ky = ky;
      best.val_accuracy = r.val.accuracy;
      best.test_accuracy = r.test.accuracy;
      best.model = std::make_unique<NodeGnnModel>(std::move(model).value());
    }
    return Status::Ok();
  };

  // Feature KProp steps first, each trained with Drop's fewest label steps
  // (ky = 0 with the default choices), then Drop's other label steps with
  // the chosen kx. Not a joint grid: with every (kx, ky) pair judged against
  // the same propagated validation labels, Cora at feature epsilon 1 came
  // out no better (label epsilon 1: 0.677 vs 0.672 over 10 splits) and
  // worse elsewhere (label epsilon 2: 0.760 vs 0.791, 0.5: 0.444 vs 0.454;
  // 3 splits): more candidates, more chances to fit that reference's noise.
  // Without edges KProp zeroes everything it touches: only no steps at all.
  const NodeFeatures* features = in.features;
  NodeFeatures made_dense;
  if (features->is_factored() && features->rows() * features->cols() <= o.dense_input_values) {
    made_dense = NodeFeatures::Dense(features->ToDense());
    features = &made_dense;
  }
  const bool edge_free = in.graph->num_entries() == 0;
  const std::vector<int> label_steps = drop && !edge_free ? Increasing(o.ky_choices) : std::vector<int>{0};
  NodeFeatures kept;  // factored inputs of the best kx so far: small, so kept rather than made again
  {
    const std::vector<int> kx_steps = edge_free ? std::vector<int>{0} : Increasing(o.kx_choices);
    PropagatedInputs inputs(*features, prop_graph, in.rectified_features, kx_steps, o.packed_input_bytes);
    for (int kx : kx_steps) {
      const NodeFeatures& x = inputs.At(kx);
      LDPGRAPH_RETURN_IF_ERROR(train(x, kx, label_steps.front()));
      if (best.kx == kx) kept = x.is_factored() && x.factored().packed == nullptr ? x : NodeFeatures();
    }
  }
  if (label_steps.size() > 1) {
    // Dense or packed inputs of the chosen kx made again rather than kept:
    // n x F values, which would be held beside the next kx's.
    PropagatedInputs chosen(*features, prop_graph, in.rectified_features, {}, o.packed_input_bytes);
    const int kx = best.kx;
    const NodeFeatures& x = kept.is_factored() ? kept : chosen.At(kx);
    for (std::size_t i = 1; i < label_steps.size(); ++i) LDPGRAPH_RETURN_IF_ERROR(train(x, kx, label_steps[i]));
  }
  if (o.prior_candidate && best.model) {
    LDPGRAPH_RETURN_IF_ERROR(ConsiderPrior(in, shares, val_reference, test_labels, &best));
  }
  return best;
}

}  // namespace ldpgraph
