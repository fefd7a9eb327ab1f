#include "experiments/linkldp_experiment.h"

#include <chrono>
#include <cmath>
#include <memory>

#include "experiments/job_runner.h"
#include "experiments/results_table.h"
#include "experiments/setting_seed.h"
#include "experiments/summary.h"
#include "experiments/summary_charts.h"
#include "privacy/label_randomization.h"
#include "linkldp/denoised_training.h"
#include "linkldp/simulated_reports.h"
#include "privacy/feature_mechanisms.h"
#include "train/lpgnn_pipeline.h"
#include "train/task_data.h"

namespace ldpgraph {

const char* const kLinkLdpMethods =
    "mlp, nonprivate, dprr, rr, blink-hard, blink-soft, blink-hybrid, ours-soft, ours-hybrid, ours";

namespace {

const CsvRow kColumns = {"dataset", "model", "features", "edge_epsilon", "method",
                         "split",   "accuracy", "val_accuracy", "edges", "seconds"};
const std::vector<std::size_t> kKeyColumns = {0, 1, 2, 3, 4, 5};
const std::vector<std::string> kGroup = {"dataset", "model", "features", "edge_epsilon", "method"};
const std::vector<std::string> kMetrics = {"accuracy", "val_accuracy", "edges", "seconds"};

bool IsMethod(const std::string& m) {
  for (const char* name : {"mlp", "nonprivate", "dprr", "rr", "blink-hard", "blink-soft", "blink-hybrid",
                           "ours-soft", "ours-hybrid", "ours"}) {
    if (m == name) return true;
  }
  return false;
}

struct Setting {
  std::string model, features;
  double edge_epsilon;
  std::string method;
  std::string Label() const {
    return model + " " + features + " edges@" + FormatNumber(edge_epsilon) + " " + method;
  }
};

class LinkLdpRunner {
 public:
  LinkLdpRunner(const GraphDataset& dataset, NodeTaskData data, const LinkLdpExperimentOptions& options,
                ResultsTable* table)
      : dataset_(dataset), data_(std::move(data)), options_(options), table_(table) {
    ScaleColumnsToUnit(&data_.features);
  }

  CsvRow Key(const Setting& s, int split) const {
    return {dataset_.name, s.model, s.features, FormatNumber(s.edge_epsilon), s.method, std::to_string(split)};
  }

  Status Run(const Setting& s, int split, const RunProgress& progress) const {
    const auto start = std::chrono::steady_clock::now();
    Inputs in;
    LDPGRAPH_RETURN_IF_ERROR(MakeInputs(s, split, &in));
    const LpgnnInputs li = PipelineInputs(s, in);
    const LpgnnOptions lo = PipelineOptions(s, in, progress);
    double test = 0, val = 0;
    std::uint64_t edges = 0;
    if (s.method == "ours") {
      // The shared pipeline (the daemon's node jobs run it too): the
      // candidates judged on validation, the edge-free model among them.
      Result<LinkReports> reports = Reports(EdgeMechanism::kRrDegree, s.edge_epsilon, split);
      if (!reports.ok()) return reports.status();
      DenoisedTrainingOptions d;
      d.feature_similarity = s.features == "true";
      d.seed = in.seed;
      d.soft_degree_multiple = options_.soft_degree_multiple;
      Result<DenoisedRun> run = TrainOnLinkReports(*reports, li, lo, d);
      if (!run.ok()) return run.status();
      test = run->chosen.run.test_accuracy;
      val = run->chosen.run.val_accuracy;
      edges = run->chosen_graph.graph.num_entries() / 2;
    } else {
      WeightedGraph g;
      LDPGRAPH_RETURN_IF_ERROR(Graph(s, split, in, li, lo, &g));
      Result<GraphRun> r = TrainOnGraph(li, lo, g);
      if (!r.ok()) return r.status();
      test = r->run.test_accuracy;
      val = r->run.val_accuracy;
      edges = g.graph.num_entries() / 2;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    CsvRow row = Key(s, split);
    row.push_back(FormatNumber(test));
    row.push_back(FormatNumber(val));
    row.push_back(std::to_string(edges));
    row.push_back(FormatNumber(seconds));
    return table_->Append(row);
  }

 private:
  // Features and labels as the server has them in setting `s`.
  struct Inputs {
    NodeFeatures private_features;
    const NodeFeatures* features = nullptr;
    std::vector<int> labels;
    double label_epsilon = INFINITY;
    Split split;
    std::uint64_t seed = 0;  // weights and dropout: the split's number
  };

  Status MakeInputs(const Setting& s, int split, Inputs* in) const {
    const std::string at_split = " split=" + std::to_string(split);
    in->split = StratifiedSplit(data_.labels, 0.50, 0.25, static_cast<std::uint64_t>(split));
    in->seed = static_cast<std::uint64_t>(split);
    in->labels = data_.labels;
    in->features = &data_.features;
    if (s.features == "true") return Status::Ok();
    // The same noisy features and labels as experiment lpgnn's for this split.
    Result<NodeFeatures> noisy = PerturbFeatures(data_.features, FeatureMechanism::kMultiBit,
                                           options_.feature_epsilon,
                                           SettingSeed("features mbm " + FormatNumber(options_.feature_epsilon) + at_split));
    if (!noisy.ok()) return noisy.status();
    in->private_features = std::move(noisy).value();
    in->features = &in->private_features;
    LDPGRAPH_RETURN_IF_ERROR(RandomizeLabels(data_.classes, options_.label_epsilon,
                                             SettingSeed("labels " + FormatNumber(options_.label_epsilon) + at_split),
                                             &in->labels));
    in->label_epsilon = options_.label_epsilon;
    return Status::Ok();
  }

  Result<LinkReports> Reports(EdgeMechanism mechanism, double epsilon, int split) const {
    EdgePolicy policy;
    policy.mechanism = mechanism;
    policy.epsilon = epsilon;
    // Blink gives the degree a tenth of the budget; DPRR its paper's eq. 8.
    policy.allocation = mechanism == EdgeMechanism::kRrDegree ? BudgetAllocation::kFixed : BudgetAllocation::kPaper;
    const std::string name = EdgeMechanismName(mechanism);
    return SimulateLinkReports(dataset_.graphs[0], policy,
                               SettingSeed("edges " + name + " " + FormatNumber(epsilon) + " split=" + std::to_string(split)));
  }

  // The graph of every method but ours.
  Status Graph(const Setting& s, int split, const Inputs& in, const LpgnnInputs& li, const LpgnnOptions& lo,
               WeightedGraph* out) const {
    const std::uint32_t n = dataset_.graphs[0].num_nodes();
    if (s.method == "mlp") {
      out->graph = CsrGraph::FromRows(std::vector<std::vector<std::uint32_t>>(n));
      return Status::Ok();
    }
    if (s.method == "nonprivate") {
      out->graph = dataset_.graphs[0];
      return Status::Ok();
    }
    if (s.method == "dprr" || s.method == "rr") {
      Result<LinkReports> r = Reports(s.method == "rr" ? EdgeMechanism::kRr : EdgeMechanism::kDprr, s.edge_epsilon, split);
      if (!r.ok()) return r.status();
      out->graph = r->rows.ToCsr();
      return Status::Ok();
    }
    Result<LinkReports> reports = Reports(EdgeMechanism::kRrDegree, s.edge_epsilon, split);
    if (!reports.ok()) return reports.status();
    Result<DenoisedOutput> output = ParseDenoisedOutput(s.method.substr(s.method.find('-') + 1));
    if (!output.ok()) return output.status();
    PairSideInformation side;
    Matrix probs;
    const auto candidates = std::make_shared<const CandidatePairs>(*reports);
    DenoisedTrainingOptions d;
    d.seed = in.seed;
    d.soft_degree_multiple = options_.soft_degree_multiple;
    if (s.method.rfind("ours", 0) == 0) {
      // The learned prior from a first model trained on Blink's hybrid graph.
      Result<WeightedGraph> blink = DenoisedTrainingGraph(*reports, DenoisedOutput::kHybrid, {}, d, candidates);
      if (!blink.ok()) return blink.status();
      Result<GraphRun> first = TrainOnGraph(li, lo, *blink);
      if (!first.ok()) return first.status();
      probs = FirstModelProbabilities(li, *first);
      side.class_probabilities = &probs;
      // Rectified private features are noise pair by pair: only true ones help.
      if (s.features == "true") side.features = in.features;
    }
    Result<WeightedGraph> g = DenoisedTrainingGraph(*reports, *output, side, d, candidates);
    if (!g.ok()) return g.status();
    *out = std::move(g).value();
    return Status::Ok();
  }

  LpgnnInputs PipelineInputs(const Setting& s, const Inputs& in) const {
    LpgnnInputs li;
    li.features = in.features;
    li.labels = &in.labels;
    li.classes = data_.classes;
    li.label_epsilon = in.label_epsilon;
    li.split = in.split;
    li.test_labels = &data_.labels;
    li.rectified_features = s.features == "private";
    return li;
  }

  static LpgnnOptions PipelineOptions(const Setting& s, const Inputs& in, const RunProgress& progress) {
    const bool private_inputs = s.features == "private";
    LpgnnOptions o;
    o.kind = s.model == "gcn" ? NodeGnnKind::kGcn : NodeGnnKind::kSage;
    o.label_method = private_inputs ? LabelMethod::kDrop : LabelMethod::kCrossEntropy;
    if (!private_inputs) o.kx_choices = {0};
    // Every method judged as ours is (denoised_training.h): against the
    // labels as the server holds them.
    o.validation_reference = ValidationReference::kNoisy;
    o.seed = in.seed;
    o.on_progress = progress;
    return o;
  }

  const GraphDataset& dataset_;
  NodeTaskData data_;
  const LinkLdpExperimentOptions& options_;
  ResultsTable* table_;
};

}  // namespace

Status SummariseLinkLdpExperiment(const std::string& out_dir) {
  return SummariseStudy(out_dir, kColumns, kKeyColumns, kGroup, kMetrics,
                        {{"edge_epsilon", "method", "accuracy", "edge epsilon", true}});
}

Status RunLinkLdpExperiment(const GraphDataset& dataset, const LinkLdpExperimentOptions& o) {
  for (const std::string& m : o.models) {
    if (m != "gcn" && m != "sage") return Status::InvalidArgument("unknown model '" + m + "' (gcn or sage)");
  }
  for (const std::string& m : o.methods) {
    if (!IsMethod(m)) return Status::InvalidArgument("unknown method '" + m + "' (" + kLinkLdpMethods + ")");
  }
  for (const std::string& f : o.feature_settings) {
    if (f != "true" && f != "private") return Status::InvalidArgument("unknown features setting '" + f + "' (true or private)");
  }
  if (o.models.empty() || o.methods.empty() || o.edge_epsilons.empty() || o.feature_settings.empty()) {
    return Status::InvalidArgument("an empty list of models, methods, epsilons or feature settings");
  }
  for (double e : o.edge_epsilons) {
    if (!(e > 0) || !std::isfinite(e)) return Status::InvalidArgument("edge epsilon must be positive and finite, got " + FormatNumber(e));
  }
  for (double e : {o.feature_epsilon, o.label_epsilon}) {
    if (!(e > 0) || !std::isfinite(e)) return Status::InvalidArgument("feature and label epsilon must be positive and finite");
  }
  if (o.splits < 1) return Status::InvalidArgument("at least one split is needed");
  if (o.soft_degree_multiple != 0 && !(o.soft_degree_multiple >= 1 && o.soft_degree_multiple <= 1e6)) {
    return Status::InvalidArgument("the soft degree multiple must be 0 (budgeted) or in [1, 1e6], got " +
                                   FormatNumber(o.soft_degree_multiple));
  }
  if (dataset.graphs.size() != 1 || dataset.feature_dims == 0) {
    return Status::InvalidArgument("experiment linkldp needs one node-classification graph with features.csv");
  }
  Result<NodeTaskData> data = MakeNodeTaskData(dataset, Aggregation::kMean);
  if (!data.ok()) return data.status();
  LDPGRAPH_RETURN_IF_ERROR(MakeOutputDirectory(o.out_dir));
  Result<std::unique_ptr<ResultsTable>> table = ResultsTable::Open(o.out_dir + "/results.csv", kColumns, kKeyColumns);
  if (!table.ok()) return table.status();
  auto runner = std::make_shared<LinkLdpRunner>(dataset, std::move(data).value(), o, table->get());
  std::vector<ExperimentJob> jobs;
  std::size_t skipped = 0;
  LpgnnOptions private_pipeline;  // what Train() runs for private features and labels
  private_pipeline.label_method = LabelMethod::kDrop;
  for (int split = 0; split < o.splits; ++split) {
    for (const std::string& model : o.models) {
      for (const std::string& features : o.feature_settings) {
        for (const std::string& method : o.methods) {
          // The edge-free and true graphs do not depend on the edge epsilon.
          const bool edge_free = method == "mlp" || method == "nonprivate";
          for (double e : edge_free ? std::vector<double>{INFINITY} : o.edge_epsilons) {
            const Setting s{model, features, e, method};
            if ((*table)->Has(runner->Key(s, split))) {
              ++skipped;
              continue;
            }
            // Models per training of the pipeline (its KProp grid with
            // private inputs), times the trainings the method needs: ours
            // a first model, its two graphs and the edge-free one.
            const int per_graph = features == "private" ? LpgnnTrainings(private_pipeline) : 1;
            const int trainings = per_graph * (method == "ours" ? 4 : method.rfind("ours", 0) == 0 ? 2 : 1);
            jobs.push_back({s.Label() + " split=" + std::to_string(split),
                            [runner, s, split](const RunProgress& p) { return runner->Run(s, split, p); },
                            trainings});
          }
        }
      }
    }
  }
  LDPGRAPH_RETURN_IF_ERROR(RunJobs("experiment linkldp", std::move(jobs), o.jobs, skipped));
  return SummariseLinkLdpExperiment(o.out_dir);
}

}  // namespace ldpgraph
