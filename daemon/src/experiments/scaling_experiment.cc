#include "experiments/scaling_experiment.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "dataset/generators.h"
#include "experiments/job_runner.h"
#include "experiments/results_table.h"
#include "experiments/setting_seed.h"
#include "experiments/summary.h"
#include "experiments/summary_charts.h"
#include "models/gin.h"
#include "privacy/perturb_dataset.h"
#include "train/graph_trainer.h"
#include "train/task_data.h"

namespace ldpgraph {
namespace {

const CsvRow kColumns = {"m", "n", "mechanism", "epsilon", "graphs", "noisy_edges",
                         "perturb_seconds", "train_seconds_per_epoch", "classify_seconds"};
const std::vector<std::size_t> kKeyColumns = {0, 1, 2, 3, 4};

using Clock = std::chrono::steady_clock;

double Since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

GraphDataset BaDataset(std::uint32_t graphs, std::uint32_t n, std::uint32_t m, std::uint64_t seed) {
  GraphDataset ds;
  ds.name = "ba";
  SeededRandomSource rng(seed);
  for (std::uint32_t g = 0; g < graphs; ++g) {
    ds.graphs.push_back(BarabasiAlbert(n, m, rng));
    ds.raw_labels.push_back(g % 2);
  }
  MapLabels(&ds);
  return ds;
}

Status RunOne(const ScalingExperimentOptions& o, std::uint32_t m, std::uint32_t n, const std::string& mechanism,
              ResultsTable* table) {
  const GraphDataset ds = BaDataset(o.graphs, n, m, SettingSeed("ba " + std::to_string(m) + " " + std::to_string(n)));
  PerturbOptions p;
  LDPGRAPH_RETURN_IF_ERROR(ParsePerturbMechanism(mechanism, &p));
  p.epsilon = o.epsilon;
  p.seeded = true;
  p.seed = SettingSeed(mechanism + " " + std::to_string(m) + " " + std::to_string(n));
  PerturbSummary summary;
  auto start = Clock::now();
  Result<GraphDataset> noisy = PerturbDataset(ds, p, &summary);
  if (!noisy.ok()) return noisy.status();
  const double perturb_seconds = Since(start);

  Result<GraphTaskData> data = MakeGraphTaskData(*noisy);
  if (!data.ok()) return data.status();
  Split split;
  for (std::uint32_t g = 0; g < o.graphs; ++g) (g < o.graphs * 4 / 5 ? split.train : split.test).push_back(g);
  split.val = split.test;
  GinConfig config;
  config.classes = 2;
  Result<GinModel> model = GinModel::Create(config, 0);
  if (!model.ok()) return model.status();
  GraphTrainOptions train;
  train.max_epochs = o.epochs;
  train.early_stopping = false;
  // At most about 10^6 users in a batch (a GIN batch keeps ~12 KB per user
  // for its backward pass): every training graph in one batch up to 10^5
  // users, one graph per batch at 10^6.
  train.batch_size = static_cast<int>(std::clamp<std::uint32_t>(1000000 / n, 1, 32));
  GraphTrainResult r = TrainGraphClassifier(&*model, data->graphs, noisy->labels, split, train, {});
  std::vector<double> epochs = r.epoch_seconds;
  std::sort(epochs.begin(), epochs.end());
  const double epoch_seconds = epochs.empty() ? 0 : epochs[epochs.size() / 2];
  start = Clock::now();
  EvaluateGraphs(&*model, data->graphs, noisy->labels, split.test, train.batch_size);
  const double classify_seconds = Since(start);
  return table->Append({std::to_string(m), std::to_string(n), mechanism, FormatNumber(o.epsilon),
                        std::to_string(o.graphs), std::to_string(summary.noisy_edges), FormatNumber(perturb_seconds),
                        FormatNumber(epoch_seconds), FormatNumber(classify_seconds)});
}

}  // namespace

const std::vector<std::string>& ScalingResultsColumns() { return kColumns; }

Status SummariseScalingExperiment(const std::string& out_dir) {
  const std::vector<std::string> metrics = {"train_seconds_per_epoch", "classify_seconds", "perturb_seconds",
                                            "noisy_edges"};
  std::vector<ChartRequest> charts;
  for (const std::string& metric : metrics) charts.push_back({"n", "mechanism", metric, "users per graph (n)", true, true});
  return SummariseStudy(out_dir, kColumns, kKeyColumns, {"m", "n", "mechanism", "epsilon", "graphs"}, metrics, charts);
}

Status RunScalingExperiment(const ScalingExperimentOptions& o) {
  for (const std::string& m : o.mechanisms) {
    if (m != "dprr" && m != "rr" && m != "locallap") {
      return Status::InvalidArgument("unknown mechanism '" + m + "' (dprr, rr or locallap)");
    }
  }
  for (std::uint32_t m : o.ms) {
    for (std::uint32_t n : o.sizes) {
      if (m < 1 || m >= n) return Status::InvalidArgument("BA graphs need 1 <= m < n");
    }
  }
  if (o.graphs < 2 || o.epochs < 1) return Status::InvalidArgument("at least 2 graphs and 1 epoch");
  if (!(o.epsilon > 0) || std::isinf(o.epsilon)) return Status::InvalidArgument("epsilon must be positive and finite");
  LDPGRAPH_RETURN_IF_ERROR(MakeOutputDirectory(o.out_dir));
  Result<std::unique_ptr<ResultsTable>> table = ResultsTable::Open(o.out_dir + "/results.csv", kColumns, kKeyColumns);
  if (!table.ok()) return table.status();
  ResultsTable* t = table->get();
  std::vector<ExperimentJob> jobs;
  std::size_t skipped = 0;
  for (std::uint32_t m : o.ms) {
    for (std::uint32_t n : o.sizes) {
      for (const std::string& mechanism : o.mechanisms) {
        if ((mechanism == "rr" && n > o.rr_max_nodes) || (mechanism == "locallap" && n > o.locallap_max_nodes)) continue;
        if (t->Has({std::to_string(m), std::to_string(n), mechanism, FormatNumber(o.epsilon), std::to_string(o.graphs)})) {
          ++skipped;
          continue;
        }
        jobs.push_back({mechanism + " m=" + std::to_string(m) + " n=" + std::to_string(n),
                        [&o, m, n, mechanism, t](const RunProgress&) { return RunOne(o, m, n, mechanism, t); }});
      }
    }
  }
  // One run at a time: the runs time themselves and must not share cores.
  LDPGRAPH_RETURN_IF_ERROR(RunJobs("experiment scaling", std::move(jobs), 1, skipped));
  return SummariseScalingExperiment(o.out_dir);
}

}  // namespace ldpgraph
