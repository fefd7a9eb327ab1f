#include "bench/epoch_profiles.h"

#include <chrono>
#include <cmath>

#include "privacy/feature_mechanisms.h"
#include "privacy/label_randomization.h"
#include "train/gin_pipeline.h"
#include "train/lpgnn_pipeline.h"
#include "train/node_trainer.h"
#include "train/task_data.h"

namespace ldpgraph {
namespace {

using Clock = std::chrono::steady_clock;

// Called at the end of every epoch: records from the end of the first to
// the end of the last of `1 + epochs`, then stops recording.
class EpochWindow {
 public:
  EpochWindow(std::string model, int epochs) : epochs_(epochs) { result_.model = std::move(model); }
  ~EpochWindow() { SetDefaultOpProfile(nullptr); }

  void EpochEnded() {
    ++seen_;
    if (seen_ == 1) {
      profile_.Clear();
      SetDefaultOpProfile(&profile_);
      start_ = Clock::now();
    } else if (seen_ == epochs_ + 1) {
      SetDefaultOpProfile(nullptr);
      result_.epoch_seconds = std::chrono::duration<double>(Clock::now() - start_).count() / epochs_;
    }
  }

  Result<EpochProfile> Finish() {
    SetDefaultOpProfile(nullptr);
    if (seen_ < epochs_ + 1) {
      return Status::Internal(result_.model + " stopped after " + std::to_string(seen_) + " epochs, before " +
                              std::to_string(epochs_ + 1));
    }
    result_.epochs = epochs_;
    for (auto& [op, t] : profile_.Ops()) {
      OpTime each = t;
      each.forward_seconds /= epochs_;
      each.backward_seconds /= epochs_;
      each.calls /= epochs_;
      result_.ops[op] = each;
    }
    return result_;
  }

 private:
  int epochs_;
  int seen_ = 0;
  OpProfile profile_;
  Clock::time_point start_;
  EpochProfile result_;
};

}  // namespace

double EpochProfile::Share(const std::string& op) const {
  const auto it = ops.find(op);
  return it == ops.end() || epoch_seconds <= 0 ? 0 : it->second.seconds() / epoch_seconds;
}

double EpochProfile::OpSeconds() const {
  double total = 0;
  for (const auto& [op, t] : ops) total += t.seconds();
  return total;
}

Result<EpochProfile> ProfileLpgnnEpochs(const GraphDataset& ds, int kx, int epochs) {
  Result<NodeTaskData> data = MakeNodeTaskData(ds, Aggregation::kMean);
  if (!data.ok()) return data.status();
  ScaleColumnsToUnit(&data->features);
  // What the users would send: multi-bit features and RR labels, each at epsilon 1.
  Result<NodeFeatures> reports = PerturbFeatures(data->features, FeatureMechanism::kMultiBit, 1.0, 1);
  if (!reports.ok()) return reports.status();
  std::vector<int> labels = data->labels;
  LDPGRAPH_RETURN_IF_ERROR(RandomizeLabels(data->classes, 1.0, 2, &labels));
  data->features = NodeFeatures();  // the true features: the server never has them

  EpochWindow window("lpgnn", epochs);
  LpgnnInputs in;
  in.graph = &ds.graphs[0];
  in.features = &*reports;
  in.labels = &labels;
  in.classes = data->classes;
  in.label_epsilon = 1.0;
  in.split = StratifiedSplit(data->labels, 0.50, 0.25, 0);
  in.test_labels = &data->labels;
  LpgnnOptions lo;
  lo.kind = NodeGnnKind::kGcn;
  lo.label_method = LabelMethod::kCrossEntropy;
  lo.kx_choices = {kx};
  lo.ky_choices = {0};
  lo.prior_candidate = false;
  lo.train.max_epochs = epochs + 1;
  lo.train.early_stopping = false;
  lo.dense_input_values = 0;  // factored, as at 10^6 users
  lo.on_progress = [&](const std::string&) { window.EpochEnded(); };
  Result<LpgnnRun> run = TrainLpgnn(in, lo);
  if (!run.ok()) return run.status();
  return window.Finish();
}

Result<EpochProfile> ProfileGcnEpochs(const GraphDataset& ds, int epochs) {
  Result<NodeTaskData> data = MakeNodeTaskData(ds, Aggregation::kGcn);
  if (!data.ok()) return data.status();
  NodeGnnConfig config;
  config.kind = NodeGnnKind::kGcn;
  config.input_dim = static_cast<int>(data->features.cols());
  config.classes = data->classes;
  Result<NodeGnnModel> model = NodeGnnModel::Create(config, 0);
  if (!model.ok()) return model.status();
  NodeTrainOptions options;
  options.max_epochs = epochs + 1;
  options.early_stopping = false;
  EpochWindow window("gcn", epochs);
  TrainNodeClassifier(&*model, data->graph, data->features, data->labels,
                      StratifiedSplit(data->labels, 0.50, 0.25, 0), options,
                      [&](const EpochReport&) { window.EpochEnded(); });
  return window.Finish();
}

Result<EpochProfile> ProfileGinEpochs(const GraphDataset& graphs, int epochs) {
  GinRunOptions options;
  options.train.max_epochs = epochs + 1;
  options.train.early_stopping = false;
  EpochWindow window("gin", epochs);
  options.on_epoch = [&](const EpochReport&) { window.EpochEnded(); };
  Result<GinRun> run = TrainGinOnDataset(graphs, options);
  if (!run.ok()) return run.status();
  return window.Finish();
}

}  // namespace ldpgraph
