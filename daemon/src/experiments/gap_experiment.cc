#include "experiments/gap_experiment.h"

#include <chrono>
#include <cmath>
#include <memory>

#include "experiments/job_runner.h"
#include "experiments/results_table.h"
#include "experiments/summary.h"
#include "experiments/summary_charts.h"
#include "gap/gap_pipeline.h"
#include "gap/progap_pipeline.h"
#include "train/node_trainer.h"
#include "train/task_data.h"

namespace ldpgraph {
namespace {

const CsvRow kColumns = {"dataset", "model", "epsilon", "split", "accuracy", "noise_multiplier", "seconds"};
const std::vector<std::size_t> kKeyColumns = {0, 1, 2, 3};
const std::vector<std::string> kGroup = {"dataset", "model", "epsilon"};
const std::vector<std::string> kMetrics = {"accuracy", "noise_multiplier", "seconds"};

class GapRunner {
 public:
  GapRunner(const GraphDataset& dataset, NodeTaskData data, const GapExperimentOptions& options, ResultsTable* table)
      : dataset_(dataset), data_(std::move(data)), options_(options), table_(table) {}

  CsvRow Key(const std::string& model, double epsilon, int split) const {
    return {dataset_.name, model, FormatNumber(epsilon), std::to_string(split)};
  }

  // The paper's GAP ("gap-edp", "gap-ndp": its classifier alone, trained as
  // long as the encoder) or ours ("-res": the residual classifier, with
  // GapOptions' defaults for it).
  static std::string Name(GapPrivacy level, bool ours) {
    return std::string(level == GapPrivacy::kEdge ? "gap-edp" : "gap-ndp") + (ours ? "-res" : "");
  }

  // GAP at `epsilon` and `level`; at epsilon inf also the encoder's MLP row.
  Status RunGap(GapPrivacy level, bool ours, double epsilon, int split) const {
    GapInputs in = Inputs(split);
    GapOptions o = Options(level, epsilon, split);
    if (!ours) {
      o.residual = GapResidual::kOff;
      o.classifier_epochs = o.encoder_epochs;
    }
    SeededRandomSource noise(static_cast<std::uint64_t>(split) ^ 0x9a9ULL);
    o.noise = &noise;
    Result<GapRun> run = TrainGap(in, o);
    if (!run.ok()) return run.status();
    if (std::isinf(epsilon) && !table_->Has(Key("mlp", epsilon, split))) {
      LDPGRAPH_RETURN_IF_ERROR(Append("mlp", epsilon, split, run->mlp_test_accuracy, 0, run->seconds));
    }
    return Append(Name(level, ours), epsilon, split, run->test_accuracy, run->noise_multiplier, run->seconds);
  }

  // ProGAP at `epsilon` and `level`, on the same noise seed as GAP's.
  Status RunProGap(GapPrivacy level, double epsilon, int split) const {
    GapOptions o = Options(level, epsilon, split);
    SeededRandomSource noise(static_cast<std::uint64_t>(split) ^ 0x9a9ULL);
    o.noise = &noise;
    Result<ProGapRun> run = TrainProGap(Inputs(split), o);
    if (!run.ok()) return run.status();
    return Append(ProGapName(level), epsilon, split, run->test_accuracy, run->noise_multiplier, run->seconds);
  }

  static std::string ProGapName(GapPrivacy level) { return level == GapPrivacy::kEdge ? "progap-edp" : "progap-ndp"; }

  // The edge-free MLP trained by DP-SGD with the whole (finite) budget.
  Status RunPrivateMlp(double epsilon, int split) const {
    const auto start = std::chrono::steady_clock::now();
    GapOptions o = Options(GapPrivacy::kNode, epsilon, split);
    SeededRandomSource noise(static_cast<std::uint64_t>(split) ^ 0x3a1fULL);
    o.noise = &noise;
    Result<PrivateMlpRun> mlp = TrainPrivateMlp(Inputs(split), o);
    if (!mlp.ok()) return mlp.status();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return Append("mlp-dp", epsilon, split, mlp->test_accuracy, 0, seconds);
  }

  // Non-private GCN or GraphSAGE as `ldpgraph train` trains them.
  Status RunGnn(const std::string& model, int split) const {
    const NodeGnnKind kind = model == "gcn" ? NodeGnnKind::kGcn : NodeGnnKind::kSage;
    NodeGnnConfig config;
    config.kind = kind;
    config.input_dim = static_cast<int>(data_.features.cols());
    config.classes = data_.classes;
    Result<NodeGnnModel> gnn = NodeGnnModel::Create(config, static_cast<std::uint64_t>(split));
    if (!gnn.ok()) return gnn.status();
    const PreparedGraph graph = PrepareGraph(dataset_.graphs[0], AggregationFor(kind));
    NodeTrainOptions o;
    o.seed = static_cast<std::uint64_t>(split);
    const Split s = StratifiedSplit(data_.labels, 0.50, 0.25, static_cast<std::uint64_t>(split));
    const NodeTrainResult r = TrainNodeClassifier(&*gnn, graph, data_.features, data_.labels, s, o, {});
    return Append(model, INFINITY, split, r.test.accuracy, 0, r.seconds);
  }

 private:
  GapInputs Inputs(int split) const {
    GapInputs in;
    in.graph = &dataset_.graphs[0];
    in.features = &data_.features;
    in.labels = &data_.labels;
    in.classes = data_.classes;
    in.split = StratifiedSplit(data_.labels, 0.50, 0.25, static_cast<std::uint64_t>(split));
    return in;
  }

  GapOptions Options(GapPrivacy level, double epsilon, int split) const {
    GapOptions o;
    o.privacy = level;
    o.model.hops = options_.hops;
    o.epsilon = epsilon;
    o.encoder_epochs = options_.epochs;
    o.max_degree = options_.max_degree;
    o.batch_size = options_.batch_size;
    o.seed = static_cast<std::uint64_t>(split);
    return o;
  }

  Status Append(const std::string& model, double epsilon, int split, double accuracy, double multiplier,
                double seconds) const {
    CsvRow row = Key(model, epsilon, split);
    row.push_back(FormatNumber(accuracy));
    row.push_back(FormatNumber(multiplier));
    row.push_back(FormatNumber(seconds));
    return table_->Append(row);
  }

  const GraphDataset& dataset_;
  NodeTaskData data_;
  const GapExperimentOptions& options_;
  ResultsTable* table_;
};

}  // namespace

Status SummariseGapExperiment(const std::string& out_dir) {
  return SummariseStudy(out_dir, kColumns, kKeyColumns, kGroup, kMetrics,
                        {{"epsilon", "model", "accuracy", "epsilon (edge- or node-level)", true}});
}

Status RunGapExperiment(const GraphDataset& dataset, const GapExperimentOptions& o) {
  if (o.epsilons.empty()) return Status::InvalidArgument("an empty epsilon list");
  for (double e : o.epsilons) {
    if (!(e > 0)) return Status::InvalidArgument("epsilon must be positive (inf: no noise), got " + FormatNumber(e));
  }
  if (o.splits < 1 || o.hops < 1 || o.epochs < 1) return Status::InvalidArgument("splits, hops and epochs must be >= 1");
  if (!o.edge_level && !o.node_level) return Status::InvalidArgument("no privacy level to run");
  if (o.max_degree < 1 || o.batch_size < 0) return Status::InvalidArgument("the degree bound must be >= 1, the batch >= 0");
  if (o.models.empty()) return Status::InvalidArgument("no model to run (gap, progap)");
  bool gap = false, progap = false;
  for (const std::string& m : o.models) {
    if (m != "gap" && m != "progap") return Status::InvalidArgument("unknown model '" + m + "' (gap or progap)");
    (m == "gap" ? gap : progap) = true;
  }
  if (dataset.feature_dims == 0) return Status::InvalidArgument("the dataset has no node features (features.csv)");
  Result<NodeTaskData> data = MakeNodeTaskData(dataset, Aggregation::kMean);
  if (!data.ok()) return data.status();
  LDPGRAPH_RETURN_IF_ERROR(MakeOutputDirectory(o.out_dir));
  Result<std::unique_ptr<ResultsTable>> table = ResultsTable::Open(o.out_dir + "/results.csv", kColumns, kKeyColumns);
  if (!table.ok()) return table.status();
  auto runner = std::make_shared<GapRunner>(dataset, std::move(data).value(), o, table->get());
  std::vector<ExperimentJob> jobs;
  std::size_t skipped = 0;
  for (int split = 0; split < o.splits; ++split) {
    std::vector<GapPrivacy> levels;
    if (o.edge_level) levels.push_back(GapPrivacy::kEdge);
    if (o.node_level) levels.push_back(GapPrivacy::kNode);
    for (double e : o.epsilons) {
      for (GapPrivacy level : levels) {
        const std::string progap_name = GapRunner::ProGapName(level);
        if (progap && !(*table)->Has(runner->Key(progap_name, e, split))) {
          // One training per stage: K + 1.
          jobs.push_back({progap_name + " eps=" + FormatNumber(e) + " split=" + std::to_string(split),
                          [runner, level, e, split](const RunProgress&) { return runner->RunProGap(level, e, split); },
                          o.hops + 1});
        } else if (progap) {
          ++skipped;
        }
        for (bool ours : {false, true}) {
          if (!gap) break;
          const std::string name = GapRunner::Name(level, ours);
          if ((*table)->Has(runner->Key(name, e, split))) {
            ++skipped;
            continue;
          }
          // GAP's encoder and classifier: two trainings (ours at edge level: three).
          const int trainings = ours && level == GapPrivacy::kEdge ? 3 : 2;
          jobs.push_back({name + " eps=" + FormatNumber(e) + " split=" + std::to_string(split),
                          [runner, level, ours, e, split](const RunProgress&) {
                            return runner->RunGap(level, ours, e, split);
                          },
                          trainings});
        }
      }
      if (!o.node_level || std::isinf(e)) continue;
      if ((*table)->Has(runner->Key("mlp-dp", e, split))) {
        ++skipped;
        continue;
      }
      jobs.push_back({"mlp-dp eps=" + FormatNumber(e) + " split=" + std::to_string(split),
                      [runner, e, split](const RunProgress&) { return runner->RunPrivateMlp(e, split); }});
    }
    for (const std::string model : {"gcn", "sage"}) {
      if ((*table)->Has(runner->Key(model, INFINITY, split))) {
        ++skipped;
        continue;
      }
      jobs.push_back({model + " split=" + std::to_string(split),
                      [runner, model, split](const RunProgress&) { return runner->RunGnn(model, split); }});
    }
  }
  LDPGRAPH_RETURN_IF_ERROR(RunJobs("experiment gap", std::move(jobs), o.jobs, skipped));
  return SummariseGapExperiment(o.out_dir);
}

}  // namespace ldpgraph
