#include "experiments/rounds_experiment.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>

#include "experiments/job_runner.h"
#include "experiments/results_table.h"
#include "experiments/round_devices.h"
#include "experiments/rounds_summary.h"
#include "experiments/setting_seed.h"
#include "experiments/summary.h"
#include "linkldp/denoised_training.h"
#include "privacy/feature_mechanisms.h"
#include "train/lpgnn_pipeline.h"
#include "train/task_data.h"

namespace ldpgraph {
namespace {

const CsvRow kColumns = {"dataset",  "model",        "mechanism", "edge_epsilon", "method",   "round",
                         "split",    "accuracy",     "val_accuracy", "loss_mean", "loss_p99", "loss_max",
                         "lists_changed", "reports_changed"};
const std::vector<std::size_t> kKeyColumns = {0, 1, 2, 3, 4, 5, 6};
const std::vector<std::string> kGroup = {"dataset", "model", "mechanism", "edge_epsilon", "method", "round"};
const std::vector<std::string> kMetrics = {"accuracy", "val_accuracy",  "loss_mean",      "loss_p99",
                                           "loss_max", "lists_changed", "reports_changed"};


struct PrivateSetting {
  std::string mechanism;
  double epsilon;
  std::string Label() const { return mechanism + "@" + FormatNumber(epsilon); }
};

// The losses over users: mean, 99th percentile, largest.
struct LossFigures {
  double mean = 0, p99 = 0, max = 0;
};

LossFigures Figures(std::vector<double> loss) {
  LossFigures f;
  if (loss.empty()) return f;
  std::sort(loss.begin(), loss.end());
  double sum = 0;
  for (double l : loss) sum += l;
  f.mean = sum / static_cast<double>(loss.size());
  f.p99 = loss[static_cast<std::size_t>(0.99 * static_cast<double>(loss.size() - 1))];
  f.max = loss.back();
  return f;
}

class RoundsRunner {
 public:
  RoundsRunner(const GraphDataset& dataset, NodeTaskData data, const RoundsExperimentOptions& options,
               ResultsTable* table)
      : dataset_(dataset), data_(std::move(data)), options_(options), table_(table) {
    ScaleColumnsToUnit(&data_.features);
  }

  CsvRow Key(const std::string& mechanism, double epsilon, const std::string& method, int round, int split) const {
    return {dataset_.name, options_.model, mechanism,          FormatNumber(epsilon),
            method,        round < 0 ? "inf" : std::to_string(round), std::to_string(split)};
  }

  // The methods a private setting trains each round.
  std::vector<std::string> PrivateMethods() const {
    return options_.fresh ? std::vector<std::string>{"memoised", "fresh"} : std::vector<std::string>{"memoised"};
  }

  bool PrivateDone(const PrivateSetting& s, int split) const {
    for (int r = 1; r <= options_.rounds; ++r) {
      for (const std::string& m : PrivateMethods()) {
        if (!table_->Has(Key(s.mechanism, s.epsilon, m, r, split))) return false;
      }
    }
    return true;
  }

  bool NoReportsDone(int split) const {
    if (!table_->Has(Key(kNoReports, INFINITY, "edge-free", -1, split))) return false;
    for (int r = 1; r <= options_.rounds; ++r) {
      if (!table_->Has(Key(kNoReports, INFINITY, "true-graph", r, split))) return false;
    }
    return true;
  }

  // Every round of one private setting: the devices report through their
  // ledgers as the graph changes, and a model trains on each round's reports.
  Status RunPrivate(const PrivateSetting& s, int split, const RunProgress& progress) const {
    EdgePolicy policy;
    Result<EdgeMechanism> mechanism = ParseEdgeMechanism(s.mechanism);
    if (!mechanism.ok()) return mechanism.status();
    policy.mechanism = *mechanism;
    policy.epsilon = s.epsilon;
    // As experiment linkldp: Blink gives the degree a tenth, DPRR eq. 8.
    policy.allocation = *mechanism == EdgeMechanism::kRrDegree ? BudgetAllocation::kFixed : BudgetAllocation::kPaper;
    Result<std::unique_ptr<RoundDevices>> devices = RoundDevices::Create(
        policy, NumUsers(), SettingSeed("devices " + s.Label() + " split=" + std::to_string(split)));
    if (!devices.ok()) return devices.status();
    Result<std::unique_ptr<FriendChurn>> churn = Churn();
    if (!churn.ok()) return churn.status();
    for (int r = 1; r <= options_.rounds; ++r) {
      const ChurnStep step = r > 1 ? (*churn)->Step() : ChurnStep{};
      const CsrGraph graph = (*churn)->Graph();
      // Every round is reported, trained or not: the ledgers need each one.
      Result<DeviceRound> round = (*devices)->Report(static_cast<std::uint32_t>(r), graph, options_.fresh);
      if (!round.ok()) return round.status();
      const LossFigures memoised = Figures(round->loss);
      const LossFigures naive{round->naive_loss, round->naive_loss, round->naive_loss};
      for (const std::string& method : PrivateMethods()) {
        const CsvRow key = Key(s.mechanism, s.epsilon, method, r, split);
        if (table_->Has(key)) continue;
        const LinkReports& reports = method == "memoised" ? round->memoised : round->fresh;
        Result<LpgnnRun> run = TrainOnReports(*mechanism, reports, split, AtRound(progress, r, method));
        if (!run.ok()) return run.status();
        LDPGRAPH_RETURN_IF_ERROR(
            Append(key, *run, method == "memoised" ? memoised : naive, step.changed.size(), round->reports_changed));
      }
    }
    return Status::Ok();
  }

  // The bars: each round's true graph, and no edges at all.
  Status RunNoReports(int split, const RunProgress& progress) const {
    const CsvRow edge_free = Key(kNoReports, INFINITY, "edge-free", -1, split);
    if (!table_->Has(edge_free)) {
      const CsrGraph none = CsrGraph::FromRows(std::vector<std::vector<std::uint32_t>>(NumUsers()));
      Result<LpgnnRun> run = TrainOnGraph(none, split, AtRound(progress, 0, "edge-free"));
      if (!run.ok()) return run.status();
      LDPGRAPH_RETURN_IF_ERROR(Append(edge_free, *run, LossFigures{}, 0, 0));
    }
    Result<std::unique_ptr<FriendChurn>> churn = Churn();
    if (!churn.ok()) return churn.status();
    const LossFigures unbounded{INFINITY, INFINITY, INFINITY};
    for (int r = 1; r <= options_.rounds; ++r) {
      const ChurnStep step = r > 1 ? (*churn)->Step() : ChurnStep{};
      const CsvRow key = Key(kNoReports, INFINITY, "true-graph", r, split);
      if (table_->Has(key)) continue;
      Result<LpgnnRun> run = TrainOnGraph((*churn)->Graph(), split, AtRound(progress, r, "true-graph"));
      if (!run.ok()) return run.status();
      LDPGRAPH_RETURN_IF_ERROR(Append(key, *run, unbounded, step.changed.size(), 0));
    }
    return Status::Ok();
  }

 private:
  std::uint32_t NumUsers() const { return dataset_.graphs[0].num_nodes(); }

  // The same changes in every run: the churn's own seed, not the split's.
  Result<std::unique_ptr<FriendChurn>> Churn() const { return FriendChurn::Create(dataset_.graphs[0], data_.labels, options_.churn); }

  RunProgress AtRound(const RunProgress& progress, int round, const std::string& method) const {
    const std::string at = "round " + std::to_string(round) + "/" + std::to_string(options_.rounds) + " " + method;
    return [progress, at](const std::string& where) { progress(at + " " + where); };
  }

  // True features and labels: only the edges are private (as experiment
  // linkldp's "true" setting, so the figures compare with its).
  LpgnnInputs Inputs(int split) const {
    LpgnnInputs in;
    in.features = &data_.features;
    in.labels = &data_.labels;
    in.classes = data_.classes;
    in.split = StratifiedSplit(data_.labels, 0.50, 0.25, static_cast<std::uint64_t>(split));
    in.test_labels = &data_.labels;
    in.rectified_features = false;
    return in;
  }

  LpgnnOptions Options(int split, const RunProgress& progress) const {
    LpgnnOptions o;
    o.kind = options_.model == "sage" ? NodeGnnKind::kSage : NodeGnnKind::kGcn;
    o.label_method = LabelMethod::kCrossEntropy;
    o.kx_choices = {0};
    o.validation_reference = ValidationReference::kNoisy;
    o.train.max_epochs = options_.max_epochs;
    o.seed = static_cast<std::uint64_t>(split);
    o.on_progress = progress;
    return o;
  }

  Result<LpgnnRun> TrainOnGraph(const CsrGraph& graph, int split, const RunProgress& progress) const {
    LpgnnInputs in = Inputs(split);
    in.graph = &graph;
    return TrainLpgnn(in, Options(split, progress));
  }

  // As the daemon's node job: RR with degree denoised by the learned prior
  // (true features: with their similarity), DPRR's rows as reported.
  Result<LpgnnRun> TrainOnReports(EdgeMechanism mechanism, const LinkReports& reports, int split,
                                  const RunProgress& progress) const {
    if (mechanism != EdgeMechanism::kRrDegree) return TrainOnGraph(reports.rows.ToCsr(), split, progress);
    DenoisedTrainingOptions d;
    d.feature_similarity = true;
    d.seed = static_cast<std::uint64_t>(split);
    Result<DenoisedRun> run = TrainOnLinkReports(reports, Inputs(split), Options(split, progress), d);
    if (!run.ok()) return run.status();
    return std::move(run->chosen.run);
  }

  Status Append(CsvRow row, const LpgnnRun& run, const LossFigures& loss, std::uint64_t lists_changed,
                std::uint64_t reports_changed) const {
    for (double v : {run.test_accuracy, run.val_accuracy, loss.mean, loss.p99, loss.max}) row.push_back(FormatNumber(v));
    row.push_back(std::to_string(lists_changed));
    row.push_back(std::to_string(reports_changed));
    return table_->Append(row);
  }

  const GraphDataset& dataset_;
  NodeTaskData data_;
  const RoundsExperimentOptions& options_;
  ResultsTable* table_;
};

}  // namespace

const std::vector<std::string>& RoundsResultsColumns() { return kColumns; }

Status SummariseRoundsExperiment(const std::string& out_dir, std::vector<std::string>* figures) {
  Result<std::unique_ptr<ResultsTable>> table =
      ResultsTable::OpenReadOnly(out_dir + "/results.csv", kColumns, kKeyColumns);
  if (!table.ok()) return table.status();
  Result<std::vector<SummaryRow>> by_round = Summarise(kColumns, (*table)->Rows(), kGroup, kMetrics);
  if (!by_round.ok()) return by_round.status();
  LDPGRAPH_RETURN_IF_ERROR(WriteSummary(out_dir + "/by_round.csv", kGroup, kMetrics, *by_round));
  const RoundsView view(*by_round);
  LDPGRAPH_RETURN_IF_ERROR(WriteRoundsSummary(out_dir + "/summary.csv", view));
  LDPGRAPH_RETURN_IF_ERROR(WriteRoundsCharts(out_dir, view));
  if (figures != nullptr) *figures = RoundsFigures(view);
  return Status::Ok();
}

Status RunRoundsExperiment(const GraphDataset& dataset, const RoundsExperimentOptions& o) {
  for (const std::string& m : o.mechanisms) {
    if (m != "rr-degree" && m != "dprr") {
      return Status::InvalidArgument("unknown mechanism '" + m + "' (rr-degree or dprr)");
    }
  }
  if (o.model != "gcn" && o.model != "sage") return Status::InvalidArgument("unknown model '" + o.model + "' (gcn or sage)");
  if (o.mechanisms.empty() || o.edge_epsilons.empty()) return Status::InvalidArgument("an empty list of mechanisms or epsilons");
  for (double e : o.edge_epsilons) {
    if (!(e > 0) || !std::isfinite(e)) {
      return Status::InvalidArgument("edge epsilon must be positive and finite, got " + FormatNumber(e));
    }
  }
  if (o.rounds < 1 || o.rounds > 1000) return Status::InvalidArgument("rounds take values from 1 to 1000");
  if (o.splits < 1) return Status::InvalidArgument("at least one split is needed");
  if (o.max_epochs < 1) return Status::InvalidArgument("at least one epoch is needed");
  if (dataset.graphs.size() != 1 || dataset.feature_dims == 0) {
    return Status::InvalidArgument("experiment rounds needs one node-classification graph with features.csv");
  }
  Result<NodeTaskData> data = MakeNodeTaskData(dataset, Aggregation::kMean);
  if (!data.ok()) return data.status();
  // The churn's own checks (fractions, a symmetric graph) before any work.
  Result<std::unique_ptr<FriendChurn>> churn = FriendChurn::Create(dataset.graphs[0], data->labels, o.churn);
  if (!churn.ok()) return churn.status();
  LDPGRAPH_RETURN_IF_ERROR(MakeOutputDirectory(o.out_dir));
  Result<std::unique_ptr<ResultsTable>> table = ResultsTable::Open(o.out_dir + "/results.csv", kColumns, kKeyColumns);
  if (!table.ok()) return table.status();
  auto runner = std::make_shared<RoundsRunner>(dataset, std::move(data).value(), o, table->get());

  // Models per round: ours trains a first model, its two graphs and the
  // edge-free one (linkldp/denoised_training.h); DPRR's rows one.
  std::vector<ExperimentJob> jobs;
  std::size_t skipped = 0;
  for (int split = 0; split < o.splits; ++split) {
    const std::string at_split = " split=" + std::to_string(split);
    if (runner->NoReportsDone(split)) {
      ++skipped;
    } else {
      jobs.push_back({"true graph and edge-free" + at_split,
                      [runner, split](const RunProgress& p) { return runner->RunNoReports(split, p); },
                      o.rounds + 1});
    }
    for (const std::string& m : o.mechanisms) {
      for (double e : o.edge_epsilons) {
        const PrivateSetting s{m, e};
        if (runner->PrivateDone(s, split)) {
          ++skipped;
          continue;
        }
        const int per_round = static_cast<int>(runner->PrivateMethods().size()) * (m == "rr-degree" ? 4 : 1);
        jobs.push_back({s.Label() + at_split,
                        [runner, s, split](const RunProgress& p) { return runner->RunPrivate(s, split, p); },
                        o.rounds * per_round});
      }
    }
  }
  LDPGRAPH_RETURN_IF_ERROR(RunJobs("experiment rounds", std::move(jobs), o.jobs, skipped));
  std::vector<std::string> figures;
  LDPGRAPH_RETURN_IF_ERROR(SummariseRoundsExperiment(o.out_dir, &figures));
  for (const std::string& line : figures) std::printf("%s\n", line.c_str());
  return Status::Ok();
}

}  // namespace ldpgraph
