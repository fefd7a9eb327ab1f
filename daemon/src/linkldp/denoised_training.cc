#include "linkldp/denoised_training.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "graph/graph_batch.h"
#include "util/named_values.h"

namespace ldpgraph {

constexpr NamedValue<LinkDenoising> kLinkDenoisings[] = {{LinkDenoising::kBlink, "blink"},
                                                          {LinkDenoising::kOurs, "ours"}};

const char* LinkDenoisingName(LinkDenoising denoising) { return NameIn(kLinkDenoisings, denoising); }

Result<LinkDenoising> ParseLinkDenoising(const std::string& name) {
  return ParseIn(kLinkDenoisings, name, "link denoising");
}

namespace {

WeightedGraph ToWeighted(DenoisedGraph d, DenoisedOutput output) {
  WeightedGraph out;
  out.graph = std::move(d.graph);
  if (output != DenoisedOutput::kHard) out.weights = std::move(d.weights);
  return out;
}

}  // namespace

bool ValidatesAboveEdgeFree(double graph_accuracy, double edge_free_accuracy, std::size_t validation_users) {
  const double a = edge_free_accuracy;
  const double margin = std::sqrt(a * (1 - a) / static_cast<double>(std::max<std::size_t>(validation_users, 1)));
  return graph_accuracy > a + margin;
}

DenoiseOptions DenoiseOptionsFor(const DenoisedTrainingOptions& options, const PairSideInformation& side) {
  DenoiseOptions o;
  o.seed = options.seed;
  o.side = side;
  if (options.soft_degree_multiple > 0) o.soft_degree_multiple = o.soft_max_multiple = options.soft_degree_multiple;
  return o;
}

Result<WeightedGraph> DenoisedTrainingGraph(const LinkReports& reports, DenoisedOutput output,
                                            const PairSideInformation& side, const DenoisedTrainingOptions& options,
                                            std::shared_ptr<const CandidatePairs> candidates) {
  const DenoiseOptions o = DenoiseOptionsFor(options, side);
  Result<LinkDenoiser> d = LinkDenoiser::Fit(reports, o, std::move(candidates));
  if (!d.ok()) return d.status();
  return ToWeighted(d->Graph(output), output);
}

Result<GraphRun> TrainOnGraph(const LpgnnInputs& inputs, const LpgnnOptions& options, const WeightedGraph& g) {
  LpgnnInputs in = inputs;
  in.graph = &g.graph;
  in.edge_weights = g.weights.empty() ? nullptr : &g.weights;
  Result<LpgnnRun> run = TrainLpgnn(in, options);
  if (!run.ok()) return run.status();
  GraphRun out;
  // Every user's class probabilities, from the chosen model's own inputs.
  const PreparedGraph mean = PrepareGraph(g.graph, in.edge_weights, Aggregation::kMean);
  PropagatedInputs x(*in.features, mean, in.rectified_features);
  const PreparedGraph model_graph = PrepareGraph(g.graph, in.edge_weights, AggregationFor(options.kind));
  std::vector<std::uint32_t> all(g.graph.num_nodes());
  std::iota(all.begin(), all.end(), 0u);
  out.probabilities = EvaluateNodes(run->model.get(), model_graph, x.At(run->kx), *in.labels, all).probs;
  out.selection_accuracy = Accuracy(out.probabilities, *in.labels, in.split.val);
  out.run = std::move(run).value();
  return out;
}

Matrix FirstModelProbabilities(const LpgnnInputs& inputs, const GraphRun& run) {
  Matrix probs = run.probabilities;
  if (!std::isfinite(inputs.label_epsilon)) {
    for (std::uint32_t v : inputs.split.train) {
      probs.row(v).setZero();
      probs(v, (*inputs.labels)[v]) = 1.0f;
    }
  }
  return probs;
}

Result<DenoisedRun> TrainOnLinkReports(const LinkReports& reports, const LpgnnInputs& inputs,
                                       const LpgnnOptions& base_options, const DenoisedTrainingOptions& d) {
  if (inputs.features == nullptr || inputs.labels == nullptr) {
    return Status::InvalidArgument("training on link reports needs features and labels");
  }
  const auto n = static_cast<std::size_t>(reports.num_users());
  if (static_cast<std::size_t>(inputs.features->rows()) != n || inputs.labels->size() != n) {
    return Status::InvalidArgument("the link reports cover " + std::to_string(n) +
                                   " users, the features and labels " + std::to_string(inputs.labels->size()));
  }
  LpgnnOptions options = base_options;
  options.validation_reference = ValidationReference::kNoisy;  // see the file comment
  DenoisedRun out;
  bool have = false;
  auto consider = [&](WeightedGraph g, const std::string& name) -> Status {
    Result<GraphRun> r = TrainOnGraph(inputs, options, g);
    ++out.trainings;
    if (!r.ok()) return r.status();
    if (!have || r->selection_accuracy > out.chosen.selection_accuracy) {
      out.chosen = std::move(r).value();
      out.graph = name;
      out.chosen_graph = std::move(g);
      have = true;
    }
    return Status::Ok();
  };
  // The candidates are a transpose of the reports: made once for every graph.
  const auto candidates = std::make_shared<const CandidatePairs>(reports);
  Result<WeightedGraph> blink = DenoisedTrainingGraph(reports, DenoisedOutput::kHybrid, {}, d, candidates);
  if (!blink.ok()) return blink.status();
  if (d.denoising == LinkDenoising::kBlink) {
    LDPGRAPH_RETURN_IF_ERROR(consider(std::move(blink).value(), "blink-hybrid"));
    return out;
  }
  Result<GraphRun> first = TrainOnGraph(inputs, options, *blink);
  ++out.trainings;
  if (!first.ok()) return first.status();
  const Matrix probs = FirstModelProbabilities(inputs, *first);
  PairSideInformation side;
  side.class_probabilities = &probs;
  if (d.feature_similarity) side.features = inputs.features;
  // One fit of the learned prior serves both of its graphs.
  const DenoiseOptions learned = DenoiseOptionsFor(d, side);
  Result<LinkDenoiser> denoiser = LinkDenoiser::Fit(reports, learned, candidates);
  if (!denoiser.ok()) return denoiser.status();
  for (DenoisedOutput output : {DenoisedOutput::kSoft, DenoisedOutput::kHybrid}) {
    LDPGRAPH_RETURN_IF_ERROR(
        consider(ToWeighted(denoiser->Graph(output), output), std::string("ours-") + DenoisedOutputName(output)));
  }
  // The edge-free model is the simpler one (ValidatesAboveEdgeFree). A
  // graph that helps does so by far more than noise (the 22,470-user twin
  // at edge epsilon 4: 0.81 against 0.31); one within noise of it can as
  // well be worse (the twin at edge epsilon 1, split 1: a graph 0.013 above
  // on validation, 0.007 below on test).
  WeightedGraph edge_free;
  edge_free.graph = CsrGraph::FromRows(std::vector<std::vector<std::uint32_t>>(n));
  Result<GraphRun> plain = TrainOnGraph(inputs, options, edge_free);
  ++out.trainings;
  if (!plain.ok()) return plain.status();
  out.best_graph_accuracy = out.chosen.selection_accuracy;
  out.edge_free_accuracy = plain->selection_accuracy;
  if (!ValidatesAboveEdgeFree(out.best_graph_accuracy, out.edge_free_accuracy, inputs.split.val.size())) {
    out.chosen = std::move(plain).value();
    out.graph = "edge-free";
    out.chosen_graph = std::move(edge_free);
  }
  return out;
}

}  // namespace ldpgraph
