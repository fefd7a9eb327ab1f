// ldpgraph.server.Model: a trained model saved and loaded in the daemon's
// own file format (store/model_file.h), and what it predicts for a dataset
// (prediction/dataset_prediction.h, as `ldpgraph predict`).
#include <string>

#include "bindings.h"
#include "conversions.h"
#include "dataset.h"
#include "model.h"
#include "prediction/dataset_prediction.h"
#include "train/lpgnn_pipeline.h"
#include "train/task_data.h"

namespace ldpgraph_python {
namespace {

py::tuple Predict(const Model& model, const Dataset& ds) {
  const bool node_model = model.any->kind == ldpgraph::ModelKind::kGcn || model.any->kind == ldpgraph::ModelKind::kSage;
  if (node_model || model.any->kind == ldpgraph::ModelKind::kGap) {
    RequireNodeDataset(ds, ldpgraph::ModelKindName(model.any->kind));
  } else {
    RequireGraphSet(ds, "gin");
  }
  ldpgraph::Result<ldpgraph::DatasetPrediction> p = [&]() -> ldpgraph::Result<ldpgraph::DatasetPrediction> {
    py::gil_scoped_release unlocked;
    if (!node_model || (model.kx == 0 && !model.standardised)) {
      return ldpgraph::PredictDataset(*model.any, ds.data, ds.features());
    }
    // An LPGNN model reads the features after KProp and standardisation.
    const ldpgraph::NodeFeatures* features = ds.features();
    ldpgraph::NodeTaskData own;
    if (features == nullptr) {
      ldpgraph::Result<ldpgraph::NodeTaskData> d = ldpgraph::MakeNodeTaskData(ds.data, ldpgraph::Aggregation::kMean);
      if (!d.ok()) return d.status();
      own = std::move(d).value();
      features = &own.features;
    }
    const ldpgraph::NodeFeatures inputs =
        ldpgraph::NodeModelInputs(ds.data.graphs[0], *features, model.kx, model.standardised);
    return ldpgraph::PredictDataset(*model.any, ds.data, &inputs);
  }();
  ldpgraph::DatasetPrediction out = Take(std::move(p));
  py::object accuracy = out.accuracy >= 0 ? py::object(py::float_(out.accuracy)) : py::none();
  return py::make_tuple(ToNumpy(std::move(out.probabilities)), accuracy);
}

void Save(const Model& model, const py::object& path_like) {
  const auto path = py::module_::import("os").attr("fspath")(path_like).cast<std::string>();
  ldpgraph::Status s = [&] {
    py::gil_scoped_release unlocked;
    return ldpgraph::SaveModel(*model.any, path);
  }();
  Check(s);
}

Model Load(const std::string& path) {
  ldpgraph::Result<ldpgraph::AnyModel> any = [&] {
    py::gil_scoped_release unlocked;
    return ldpgraph::LoadModel(path);
  }();
  Model m;
  m.any = std::make_shared<ldpgraph::AnyModel>(Take(std::move(any)));
  return m;
}

}  // namespace

ldpgraph::NodeGnnKind NodeKind(const std::string& name) {
  if (name == "gcn") return ldpgraph::NodeGnnKind::kGcn;
  if (name == "sage") return ldpgraph::NodeGnnKind::kSage;
  throw py::value_error("model must be gcn or sage, got '" + name + "'");
}

void BindModels(py::module_& m) {
  py::class_<Model>(m, "Model", py::dynamic_attr())
      .def_property_readonly("kind", [](const Model& x) { return ldpgraph::ModelKindName(x.any->kind); })
      .def_readwrite("kx", &Model::kx)
      .def_readwrite("standardised", &Model::standardised)
      .def("predict", &Predict, py::arg("dataset"))
      .def("save", &Save, py::arg("path"));
  m.def("load_model", &Load, py::arg("path"));
}

}  // namespace ldpgraph_python
