// ldpgraph.server's training: GCN and GraphSAGE as `ldpgraph train` runs
// them (train/node_pipeline.h), GIN on graph sets (train/gin_pipeline.h),
// LPGNN with KProp and Drop (train/lpgnn_pipeline.h) and GAP at edge or node
// level (gap/gap_pipeline.h). Each runs without the GIL and returns the
// model with its metrics.
#include <cmath>
#include <string>
#include <vector>

#include <pybind11/stl.h>

#include "bindings.h"
#include "checks.h"
#include "conversions.h"
#include "dataset.h"
#include "gap/gap_pipeline.h"
#include "model.h"
#include "progress.h"
#include "train/gin_pipeline.h"
#include "train/lpgnn_pipeline.h"
#include "train/node_pipeline.h"

namespace ldpgraph_python {
namespace {

using ldpgraph::Split;

std::vector<std::uint32_t> Rows(const py::handle& rows, std::size_t nodes, const std::vector<int>& labels,
                                const char* name) {
  const Int64Array a = Int64Array::ensure(rows);
  if (!a || a.ndim() != 1) throw py::value_error(std::string("split: ") + name + " must be a 1-d integer array");
  std::vector<std::uint32_t> out;
  for (py::ssize_t k = 0; k < a.shape(0); ++k) {
    const std::int64_t v = a.data()[k];
    if (v < 0 || static_cast<std::size_t>(v) >= nodes) {
      throw py::value_error(std::string("split: ") + name + "[" + std::to_string(k) + "] = " + std::to_string(v) +
                            " is not a node id in [0, " + std::to_string(nodes) + ")");
    }
    if (labels[static_cast<std::size_t>(v)] < 0) {
      throw py::value_error(std::string("split: ") + name + " names node " + std::to_string(v) +
                            ", which has no label");
    }
    out.push_back(static_cast<std::uint32_t>(v));
  }
  return out;
}

// `split`: None for the default 50/25/25 stratified split of `seed`, or
// (train, val, test) arrays of node ids.
Split NodeSplit(const py::object& split, const std::vector<int>& labels, std::uint64_t seed) {
  if (split.is_none()) return ldpgraph::DefaultNodeSplit(labels, seed);
  auto parts = split.cast<py::tuple>();
  if (parts.size() != 3) throw py::value_error("split must be (train, val, test) node id arrays");
  Split s;
  s.train = Rows(parts[0], labels.size(), labels, "train");
  s.val = Rows(parts[1], labels.size(), labels, "val");
  s.test = Rows(parts[2], labels.size(), labels, "test");
  if (s.train.empty() || s.val.empty() || s.test.empty()) throw py::value_error("split: every part needs a node");
  return s;
}

py::dict EpochDict(const ldpgraph::EpochReport& r) {
  py::dict d;
  d["epoch"] = r.epoch;
  d["train_loss"] = r.train_loss;
  d["val_loss"] = r.val_loss;
  d["val_accuracy"] = r.val_accuracy;
  d["seconds"] = r.seconds;
  return d;
}

std::function<void(const ldpgraph::EpochReport&)> EpochRelay(Progress* progress) {
  if (!progress->enabled()) return {};
  return [progress](const ldpgraph::EpochReport& r) { progress->Report([&] { return EpochDict(r); }); };
}

// What a node or graph trainer tells (NodeTrainResult, GraphTrainResult).
template <typename TrainResult>
py::dict TrainingMetrics(const Split& split, const TrainResult& r) {
  py::dict metrics;
  metrics["train"] = split.train.size();
  metrics["val"] = split.val.size();
  metrics["test"] = split.test.size();
  metrics["epochs"] = r.epochs;
  metrics["best_epoch"] = r.best_epoch;
  metrics["val_accuracy"] = r.val.accuracy;
  metrics["test_accuracy"] = r.test.accuracy;
  metrics["test_auc"] = r.test.auc;
  metrics["train_seconds"] = r.seconds;
  return metrics;
}

Model Wrap(ldpgraph::AnyModel model) {
  Model m;
  m.any = std::make_shared<ldpgraph::AnyModel>(std::move(model));
  return m;
}

py::tuple TrainNode(const Dataset& ds, const std::string& model, int hidden, int layers, float dropout, int epochs,
                    float lr, std::uint64_t seed, const py::object& split, const py::object& on_epoch) {
  RequireNodeDataset(ds, "gcn and sage");
  ldpgraph::NodeRunOptions o;
  o.kind = NodeKind(model);
  o.hidden = InRange("hidden", hidden, 1, 4096);
  o.layers = InRange("layers", layers, 1, 16);
  o.dropout = InRange("dropout", dropout, 0.0f, 0.99f);
  o.train.max_epochs = InRange("epochs", epochs, 1, 100000);
  o.train.lr = InRange("lr", lr, 1e-9f, 10.0f);
  o.seed = seed;
  const ldpgraph::NodeTaskData data = NodeTask(ds, ldpgraph::AggregationFor(o.kind));
  const Split s = NodeSplit(split, data.labels, seed);
  Progress progress(on_epoch);
  o.on_epoch = EpochRelay(&progress);
  ldpgraph::Result<ldpgraph::NodeRun> run = [&] {
    py::gil_scoped_release unlocked;
    return ldpgraph::TrainNodeModel(data, s, o);
  }();
  progress.RaiseIfFailed();
  ldpgraph::NodeRun r = Take(std::move(run));
  ldpgraph::AnyModel any;
  any.kind = ModelKindOf(o.kind);
  any.node = std::move(r.model);
  return py::make_tuple(Wrap(std::move(any)), TrainingMetrics(s, r.result));
}

py::tuple TrainGin(const Dataset& ds, int hidden, int layers, float dropout, const std::string& readout,
                   const std::string& node_input, int epochs, int batch_size, float lr, std::uint64_t seed,
                   const py::object& on_epoch) {
  RequireGraphSet(ds, "gin");
  ldpgraph::GinRunOptions o;
  Check(ldpgraph::SetGinNodeInput(node_input, &o.model));
  if (readout != "mean" && readout != "sum") {
    throw py::value_error("readout must be mean or sum, got '" + readout + "'");
  }
  o.model.hidden = InRange("hidden", hidden, 1, 4096);
  o.model.layers = InRange("layers", layers, 2, 16);
  o.model.dropout = InRange("dropout", dropout, 0.0f, 0.99f);
  o.model.mean_readout = readout == "mean";
  o.train.max_epochs = InRange("epochs", epochs, 1, 100000);
  o.train.batch_size = InRange("batch_size", batch_size, 1, 1 << 20);
  o.train.lr = InRange("lr", lr, 1e-9f, 10.0f);
  o.seed = seed;
  Progress progress(on_epoch);
  o.on_epoch = EpochRelay(&progress);
  ldpgraph::Result<ldpgraph::GinRun> run = [&] {
    py::gil_scoped_release unlocked;
    return ldpgraph::TrainGinOnDataset(ds.data, o);
  }();
  progress.RaiseIfFailed();
  ldpgraph::GinRun r = Take(std::move(run));
  ldpgraph::AnyModel any;
  any.kind = ldpgraph::ModelKind::kGin;
  any.gin = std::move(r.model);
  return py::make_tuple(Wrap(std::move(any)), TrainingMetrics(r.split, r.result));
}

std::vector<int> Choices(const std::vector<int>& steps, const char* name) {
  if (steps.empty()) throw py::value_error(std::string(name) + " must name at least one step count");
  for (int k : steps) InRange(name, k, 0, 64);
  return steps;
}

py::tuple TrainLpgnnModel(const Dataset& ds, const std::string& model, const std::string& label_method,
                          double label_epsilon, bool rectified, const std::vector<int>& kx, const std::vector<int>& ky,
                          int hidden, int epochs, std::uint64_t seed, const py::object& split,
                          const py::object& on_progress) {
  RequireNodeDataset(ds, "lpgnn");
  ldpgraph::LpgnnOptions o;
  o.kind = NodeKind(model);
  o.label_method = Take(ldpgraph::ParseLabelMethod(label_method));
  o.kx_choices = Choices(kx, "kx");
  o.ky_choices = Choices(ky, "ky");
  o.hidden = InRange("hidden", hidden, 1, 4096);
  o.train.max_epochs = InRange("epochs", epochs, 1, 100000);
  o.seed = seed;
  const ldpgraph::NodeTaskData data = NodeTask(ds, ldpgraph::Aggregation::kMean);
  ldpgraph::LpgnnInputs in;
  in.graph = &ds.data.graphs[0];
  in.features = &data.features;
  in.labels = &data.labels;
  in.classes = data.classes;
  in.label_epsilon = Epsilon("label_epsilon", label_epsilon, true);
  in.rectified_features = rectified;
  in.split = NodeSplit(split, data.labels, seed);
  Progress progress(on_progress);
  if (progress.enabled()) {
    o.on_progress = [&progress](const std::string& where) { progress.Report([&] { return py::str(where); }); };
  }
  ldpgraph::Result<ldpgraph::LpgnnRun> run = [&] {
    py::gil_scoped_release unlocked;
    return ldpgraph::TrainLpgnn(in, o);
  }();
  progress.RaiseIfFailed();
  ldpgraph::LpgnnRun r = Take(std::move(run));
  ldpgraph::AnyModel any;
  any.kind = ModelKindOf(o.kind);
  any.node = std::move(r.model);
  Model m = Wrap(std::move(any));
  m.kx = r.kx;
  m.standardised = rectified;
  py::dict metrics;
  metrics["kx"] = r.kx;
  metrics["ky"] = r.ky;
  metrics["val_accuracy"] = r.val_accuracy;
  metrics["test_accuracy"] = r.test_accuracy;
  return py::make_tuple(m, metrics);
}

py::tuple TrainGapModel(const Dataset& ds, const std::string& privacy, double epsilon, double delta, int hops,
                        int hidden, int epochs, int classifier_epochs, float lr, std::uint32_t max_degree,
                        int batch_size, double clip, const std::string& residual, std::uint64_t seed,
                        const py::object& split) {
  RequireNodeDataset(ds, "gap");
  if (privacy != "edge" && privacy != "node") {
    throw py::value_error("privacy must be edge or node, got '" + privacy + "'");
  }
  if (residual != "auto" && residual != "on" && residual != "off") {
    throw py::value_error("residual must be auto, on or off, got '" + residual + "'");
  }
  ldpgraph::GapOptions o;
  o.privacy = privacy == "node" ? ldpgraph::GapPrivacy::kNode : ldpgraph::GapPrivacy::kEdge;
  o.epsilon = Epsilon("epsilon", epsilon, true);
  if (delta != 0) InRange("delta", delta, 1e-300, 0.999999);
  o.delta = delta;
  o.model.hops = InRange("hops", hops, 1, 16);
  o.model.hidden = InRange("hidden", hidden, 1, 4096);
  o.encoder_epochs = InRange("epochs", epochs, 1, 100000);
  o.classifier_epochs = classifier_epochs == 0 ? 0 : InRange("classifier_epochs", classifier_epochs, 1, 100000);
  o.lr = InRange("lr", lr, 1e-9f, 10.0f);
  o.max_degree = InRange("max_degree", max_degree, 1u, 1000000u);
  o.batch_size = batch_size == 0 ? 0 : InRange("batch_size", batch_size, 1, 1000000000);
  o.clip_norm = InRange("clip", clip, 1e-12, 1e12);
  o.residual = residual == "on" ? ldpgraph::GapResidual::kOn
               : residual == "off" ? ldpgraph::GapResidual::kOff
                                   : ldpgraph::GapResidual::kAuto;
  o.seed = seed;
  const ldpgraph::NodeTaskData data = NodeTask(ds, ldpgraph::Aggregation::kMean);
  ldpgraph::GapInputs in;
  in.graph = &ds.data.graphs[0];
  in.features = &data.features;
  in.labels = &data.labels;
  in.classes = data.classes;
  in.split = NodeSplit(split, data.labels, seed);
  ldpgraph::Result<ldpgraph::GapRun> run = [&] {
    py::gil_scoped_release unlocked;
    return ldpgraph::TrainGap(in, o);
  }();
  ldpgraph::GapRun r = Take(std::move(run));
  py::dict metrics;
  metrics["privacy"] = privacy;
  metrics["epsilon"] = r.epsilon;
  metrics["delta"] = r.delta;
  metrics["sensitivity"] = r.sensitivity;
  metrics["noise_multiplier"] = r.noise_multiplier;
  metrics["noise_stddev"] = r.noise_stddev;
  metrics["residual"] = r.residual;
  if (o.privacy == ldpgraph::GapPrivacy::kNode) {
    metrics["max_degree"] = r.max_degree;
    metrics["dp_sgd_steps"] = r.dp_sgd_steps;
  }
  metrics["mlp_test_accuracy"] = r.mlp_test_accuracy;
  metrics["val_accuracy"] = r.val_accuracy;
  metrics["test_accuracy"] = r.test_accuracy;
  metrics["train_seconds"] = r.seconds;
  ldpgraph::AnyModel any;
  any.kind = ldpgraph::ModelKind::kGap;
  any.gap = std::move(r.model);
  return py::make_tuple(Wrap(std::move(any)), metrics);
}

}  // namespace

void BindTraining(py::module_& m) {
  m.def("train_node", &TrainNode, py::arg("dataset"), py::arg("model"), py::arg("hidden"), py::arg("layers"),
        py::arg("dropout"), py::arg("epochs"), py::arg("lr"), py::arg("seed"), py::arg("split"), py::arg("on_epoch"));
  m.def("train_gin", &TrainGin, py::arg("dataset"), py::arg("hidden"), py::arg("layers"), py::arg("dropout"),
        py::arg("readout"), py::arg("node_input"), py::arg("epochs"), py::arg("batch_size"), py::arg("lr"),
        py::arg("seed"), py::arg("on_epoch"));
  m.def("train_lpgnn", &TrainLpgnnModel, py::arg("dataset"), py::arg("model"), py::arg("label_method"),
        py::arg("label_epsilon"), py::arg("rectified"), py::arg("kx"), py::arg("ky"), py::arg("hidden"),
        py::arg("epochs"), py::arg("seed"), py::arg("split"), py::arg("on_progress"));
  m.def("train_gap", &TrainGapModel, py::arg("dataset"), py::arg("privacy"), py::arg("epsilon"), py::arg("delta"),
        py::arg("hops"), py::arg("hidden"), py::arg("epochs"), py::arg("classifier_epochs"), py::arg("lr"),
        py::arg("max_degree"), py::arg("batch_size"), py::arg("clip"), py::arg("residual"), py::arg("seed"),
        py::arg("split"));
}

}  // namespace ldpgraph_python
