#include "experiments/lpgnn_experiment.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <set>

#include "experiments/job_runner.h"
#include "experiments/results_table.h"
#include "experiments/summary.h"
#include "experiments/summary_charts.h"
#include "experiments/setting_seed.h"
#include "privacy/label_randomization.h"
#include "models/node_gnn.h"
#include "privacy/feature_mechanisms.h"
#include "privacy/perturb_dataset.h"
#include "train/lpgnn_pipeline.h"
#include "train/task_data.h"

namespace ldpgraph {
namespace {

const CsvRow kColumns = {"dataset",      "model", "feature_mechanism", "feature_epsilon", "label_method", "label_epsilon",
                         "edge_epsilon", "kx",    "ky",                "split",           "accuracy"};
const std::vector<std::size_t> kKeyColumns = {0, 1, 2, 3, 4, 5, 6, 9};
const std::vector<std::string> kGroup = {"dataset",      "model",        "feature_mechanism", "feature_epsilon",
                                         "label_method", "label_epsilon", "edge_epsilon"};
const std::vector<std::string> kMetrics = {"accuracy", "kx", "ky"};

struct LpgnnSetting {
  std::string model;
  std::string feature_mechanism;  // "none" when feature_epsilon is inf
  double feature_epsilon;
  std::string label_method;
  double label_epsilon;
  double edge_epsilon;

  std::string Label() const {
    return model + " " + feature_mechanism + "@" + FormatNumber(feature_epsilon) + " " + label_method + "@" +
           FormatNumber(label_epsilon) + " edges@" + FormatNumber(edge_epsilon);
  }
};

class LpgnnRunner {
 public:
  LpgnnRunner(const GraphDataset& dataset, NodeTaskData data, const LpgnnExperimentOptions& options,
              ResultsTable* table)
      : dataset_(dataset), data_(std::move(data)), options_(options), table_(table) {
    ScaleColumnsToUnit(&data_.features);
  }

  CsvRow Key(const LpgnnSetting& s, int split) const {
    return {dataset_.name,          s.model,
            s.feature_mechanism,    FormatNumber(s.feature_epsilon),
            s.label_method,         FormatNumber(s.label_epsilon),
            FormatNumber(s.edge_epsilon), std::to_string(split)};
  }

  // The pipeline's options for setting `s` (the split seeds the rest).
  Result<LpgnnOptions> Options(const LpgnnSetting& s) const {
    LpgnnOptions o;
    o.kind = s.model == "gcn" ? NodeGnnKind::kGcn : NodeGnnKind::kSage;
    Result<LabelMethod> method = ParseLabelMethod(s.label_method);
    if (!method.ok()) return method.status();
    o.label_method = *method;
    o.kx_choices = options_.kx_choices;
    o.ky_choices = options_.ky_choices;
    o.hidden = options_.hidden;
    o.dropout = options_.dropout;
    o.train = options_.train;
    o.validation_reference = options_.validation_reference;
    o.propagate_validation_labels = options_.propagate_validation_labels;
    o.node_order = options_.node_order;
    o.node_order_from = options_.node_order_from;
    return o;
  }

  Status Run(const LpgnnSetting& s, int split, const RunProgress& progress) const {
    // Each part's noise depends only on its own parameters and the split, so
    // the label methods (and models) are compared on the same noisy data.
    const std::string at_split = " split=" + std::to_string(split);
    const std::uint64_t edge_seed = SettingSeed("edges " + FormatNumber(s.edge_epsilon) + at_split);
    const std::uint64_t feature_seed =
        SettingSeed("features " + s.feature_mechanism + " " + FormatNumber(s.feature_epsilon) + at_split);
    const std::uint64_t label_seed = SettingSeed("labels " + FormatNumber(s.label_epsilon) + at_split);
    // Edges: every user's list through the SDK's DPRR, or the true graph.
    CsrGraph graph = dataset_.graphs[0];
    if (std::isfinite(s.edge_epsilon)) {
      GraphDataset one;
      one.format = DatasetFormat::kCsv;
      one.graphs.push_back(graph);
      PerturbOptions p;
      p.mechanism = EdgeMechanism::kDprr;
      p.epsilon = s.edge_epsilon;
      p.seeded = true;
      p.seed = edge_seed;
      PerturbSummary summary;
      Result<GraphDataset> noisy = PerturbDataset(one, p, &summary);
      if (!noisy.ok()) return noisy.status();
      graph = std::move(noisy->graphs[0]);
    }
    // Features: each node's vector through the mechanism (mbm's factored, the others dense).
    const NodeFeatures* features = &data_.features;
    NodeFeatures noisy_features;
    if (std::isfinite(s.feature_epsilon)) {
      Result<FeatureMechanism> m = ParseFeatureMechanism(s.feature_mechanism);
      if (!m.ok()) return m.status();
      Result<NodeFeatures> noisy = PerturbFeatures(data_.features, *m, s.feature_epsilon, feature_seed);
      if (!noisy.ok()) return noisy.status();
      noisy_features = std::move(noisy).value();
      features = &noisy_features;
    }

    // Labels: k-ary randomized response on every labelled node.
    std::vector<int> noisy_labels = data_.labels;
    if (std::isfinite(s.label_epsilon)) {
      LDPGRAPH_RETURN_IF_ERROR(RandomizeLabels(data_.classes, s.label_epsilon, label_seed, &noisy_labels));
    }

    // What the server holds, through the one LPGNN pipeline.
    LpgnnInputs in;
    in.graph = &graph;
    in.features = features;
    in.labels = &noisy_labels;
    in.classes = data_.classes;
    in.label_epsilon = s.label_epsilon;
    in.split = StratifiedSplit(data_.labels, 0.50, 0.25, static_cast<std::uint64_t>(split));
    in.test_labels = &data_.labels;
    in.rectified_features = std::isfinite(s.feature_epsilon);
    Result<LpgnnOptions> o = Options(s);
    if (!o.ok()) return o.status();
    o->seed = static_cast<std::uint64_t>(split);
    o->on_progress = progress;
    Result<LpgnnRun> run = TrainLpgnn(in, *o);
    if (!run.ok()) return run.status();
    CsvRow row = Key(s, split);
    row.insert(row.begin() + 7, {std::to_string(run->kx), std::to_string(run->ky)});
    row.push_back(FormatNumber(run->test_accuracy));
    return table_->Append(row);
  }

 private:
  const GraphDataset& dataset_;
  NodeTaskData data_;
  const LpgnnExperimentOptions& options_;
  ResultsTable* table_;
};

}  // namespace

const std::vector<std::string>& LpgnnResultsColumns() { return kColumns; }

Status SummariseLpgnnExperiment(const std::string& out_dir) {
  return SummariseStudy(out_dir, kColumns, kKeyColumns, kGroup, kMetrics,
                        {
                            {"feature_epsilon", "feature_mechanism", "accuracy", "feature epsilon", true},
                            {"label_epsilon", "label_method", "accuracy", "label epsilon", true},
                            {"edge_epsilon", "label_method", "accuracy", "edge epsilon (DPRR)", true},
                        });
}

Status RunLpgnnExperiment(const GraphDataset& dataset, const LpgnnExperimentOptions& o) {
  for (const std::string& m : o.models) {
    if (m != "sage" && m != "gcn") return Status::InvalidArgument("unknown model '" + m + "' (sage or gcn)");
  }
  for (const std::string& m : o.feature_mechanisms) {
    Result<FeatureMechanism> parsed = ParseFeatureMechanism(m);
    if (!parsed.ok()) return parsed.status();
  }
  for (const std::string& m : o.label_methods) {
    Result<LabelMethod> parsed = ParseLabelMethod(m);
    if (!parsed.ok()) return parsed.status();
  }
  for (const auto* list : {&o.feature_epsilons, &o.label_epsilons, &o.edge_epsilons}) {
    if (list->empty()) return Status::InvalidArgument("an empty epsilon list");
    for (double e : *list) {
      if (!(e > 0)) return Status::InvalidArgument("epsilon must be positive (inf: no privacy), got " + FormatNumber(e));
    }
  }
  if (o.models.empty() || o.feature_mechanisms.empty() || o.label_methods.empty() || o.kx_choices.empty()) {
    return Status::InvalidArgument("an empty list of models, mechanisms, methods or KProp steps");
  }
  if (o.splits < 1) return Status::InvalidArgument("at least one split is needed");
  if (dataset.feature_dims == 0) {
    return Status::InvalidArgument("the dataset has no node features (features.csv): lpgnn needs them");
  }
  Result<NodeTaskData> data = MakeNodeTaskData(dataset, Aggregation::kMean);
  if (!data.ok()) return data.status();
  LDPGRAPH_RETURN_IF_ERROR(MakeOutputDirectory(o.out_dir));
  Result<std::unique_ptr<ResultsTable>> table = ResultsTable::Open(o.out_dir + "/results.csv", kColumns, kKeyColumns);
  if (!table.ok()) return table.status();
  auto runner = std::make_shared<LpgnnRunner>(dataset, std::move(data).value(), o, table->get());

  // The settings, without repeats: with true features (inf) the mechanism
  // does not matter ("none"), and with true labels there is no noise for a
  // label method to learn around: plain cross-entropy ("ce") stands for all.
  std::vector<LpgnnSetting> settings;
  std::set<std::string> seen;
  for (const std::string& model : o.models)
    for (double fe : o.feature_epsilons)
      for (const std::string& fm : o.feature_mechanisms)
        for (double le : o.label_epsilons)
          for (const std::string& lm : o.label_methods)
            for (double ee : o.edge_epsilons) {
              LpgnnSetting s{model, std::isinf(fe) ? "none" : fm, fe, std::isinf(le) ? "ce" : lm, le, ee};
              if (seen.insert(s.Label()).second) settings.push_back(s);
            }
  std::vector<ExperimentJob> jobs;
  std::size_t skipped = 0;
  for (int split = 0; split < o.splits; ++split) {
    for (const LpgnnSetting& s : settings) {
      if ((*table)->Has(runner->Key(s, split))) {
        ++skipped;
        continue;
      }
      Result<LpgnnOptions> options = runner->Options(s);
      if (!options.ok()) return options.status();
      jobs.push_back({s.Label() + " split=" + std::to_string(split),
                      [runner, s, split](const RunProgress& progress) { return runner->Run(s, split, progress); },
                      LpgnnTrainings(*options)});
    }
  }
  LDPGRAPH_RETURN_IF_ERROR(RunJobs("experiment lpgnn", std::move(jobs), o.jobs, skipped));
  return SummariseLpgnnExperiment(o.out_dir);
}

}  // namespace ldpgraph
