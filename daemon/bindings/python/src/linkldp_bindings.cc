// Link LDP: every user's edge report simulated as her device would send it
// (linkldp/simulated_reports.h), the denoiser's posterior graph under
// Blink's degree prior or our learned prior (linkldp/link_denoiser.h), and
// LPGNN trained on the reports as the daemon's node jobs do
// (linkldp/denoised_training.h).
#include <string>

#include <pybind11/stl.h>

#include "bindings.h"
#include "checks.h"
#include "conversions.h"
#include "dataset.h"
#include "ldpgraph/edge_mechanism.h"
#include "linkldp/denoised_training.h"
#include "linkldp/link_denoiser.h"
#include "linkldp/simulated_reports.h"
#include "model.h"
#include "train/node_pipeline.h"
#include "train/task_data.h"

namespace ldpgraph_python {
namespace {

ldpgraph::LinkReports Simulate(const Int64Array& indptr, const Int32Array& indices, const std::string& mechanism,
                               double epsilon, const std::string& allocation, std::uint32_t n_max, std::uint64_t seed) {
  const ldpgraph::CsrGraph graph = GraphFromCsr(indptr, indices, "adjacency");
  ldpgraph::EdgePolicy policy;
  policy.mechanism = Take(ldpgraph::ParseEdgeMechanism(mechanism));
  if (policy.mechanism == ldpgraph::EdgeMechanism::kLocalLap || policy.mechanism == ldpgraph::EdgeMechanism::kNone) {
    throw py::value_error("mechanism must be dprr, rr or rr-degree (the denoiser reads RR rows), got '" + mechanism +
                          "'");
  }
  policy.epsilon = Epsilon("epsilon", epsilon, false);
  policy.allocation = Take(ldpgraph::ParseBudgetAllocation(allocation));
  policy.n_max = n_max;
  ldpgraph::Result<ldpgraph::LinkReports> r = [&] {
    py::gil_scoped_release unlocked;
    return ldpgraph::SimulateLinkReports(graph, policy, seed);
  }();
  return Take(std::move(r));
}

py::tuple WeightedCsr(const ldpgraph::CsrGraph& graph, std::vector<float> weights) {
  py::tuple csr = CsrArrays(graph);
  if (weights.empty()) weights.assign(graph.offsets().back(), 1.0f);
  return py::make_tuple(csr[0], csr[1], py::array_t<float>(static_cast<py::ssize_t>(weights.size()), weights.data()));
}

// Side information for the learned prior, kept alive for the call.
struct Side {
  ldpgraph::Matrix probabilities;
  ldpgraph::NodeTaskData task;
  ldpgraph::PairSideInformation info;
};

void SetSide(const py::object& class_probabilities, const py::object& features_of, std::uint32_t n, Side* side) {
  if (!class_probabilities.is_none()) {
    const Float32Array p = Float32Array::ensure(class_probabilities);
    if (!p || p.ndim() != 2 || p.shape(0) != static_cast<py::ssize_t>(n) || p.shape(1) < 2) {
      throw py::value_error("class_probabilities must be users x classes (" + std::to_string(n) +
                            " rows, >= 2 columns)");
    }
    side->probabilities = Eigen::Map<const ldpgraph::Matrix>(p.data(), p.shape(0), p.shape(1));
    side->info.class_probabilities = &side->probabilities;
  }
  if (!features_of.is_none()) {
    const Dataset& ds = features_of.cast<const Dataset&>();
    RequireNodeDataset(ds, "the learned prior's features");
    side->task = NodeTask(ds, ldpgraph::Aggregation::kMean);
    if (side->task.features.rows() != static_cast<Eigen::Index>(n)) {
      throw py::value_error("features_of has " + std::to_string(side->task.features.rows()) + " nodes; the reports " +
                            std::to_string(n) + " users");
    }
    side->info.features = &side->task.features;
  }
}

py::tuple Denoise(const ldpgraph::LinkReports& reports, const std::string& output,
                  const py::object& class_probabilities, const py::object& features_of, int em_iterations,
                  double soft_degree_multiple, std::uint64_t seed) {
  ldpgraph::DenoiseOptions o;
  o.output = Take(ldpgraph::ParseDenoisedOutput(output));
  o.em_iterations = InRange("em_iterations", em_iterations, 0, 100);
  if (soft_degree_multiple != 0) {  // 0: the denoiser's budget decides
    if (!(soft_degree_multiple >= 1 && soft_degree_multiple <= 1e6)) {
      throw py::value_error("soft_degree_multiple must be in [1, 1e6], got " + std::to_string(soft_degree_multiple));
    }
    o.soft_degree_multiple = o.soft_max_multiple = soft_degree_multiple;
  }
  o.seed = seed;
  Side side;
  SetSide(class_probabilities, features_of, reports.num_users(), &side);
  o.side = side.info;
  ldpgraph::Result<ldpgraph::DenoisedGraph> g = [&] {
    py::gil_scoped_release unlocked;
    return ldpgraph::DenoiseLinks(reports, o);
  }();
  ldpgraph::DenoisedGraph d = Take(std::move(g));
  return WeightedCsr(d.graph, std::move(d.weights));
}

py::tuple TrainOnReports(const ldpgraph::LinkReports& reports, const Dataset& ds, const std::string& denoising,
                         const std::string& model, const std::string& label_method, double label_epsilon,
                         bool rectified, int hidden, int epochs, std::uint64_t seed) {
  RequireNodeDataset(ds, "train_on_link_reports");
  ldpgraph::DenoisedTrainingOptions d;
  d.denoising = Take(ldpgraph::ParseLinkDenoising(denoising));
  d.feature_similarity = !rectified;
  d.seed = seed;
  ldpgraph::LpgnnOptions o;
  o.kind = NodeKind(model);
  o.label_method = Take(ldpgraph::ParseLabelMethod(label_method));
  o.hidden = InRange("hidden", hidden, 1, 4096);
  o.train.max_epochs = InRange("epochs", epochs, 1, 100000);
  o.seed = seed;
  const ldpgraph::NodeTaskData data = NodeTask(ds, ldpgraph::Aggregation::kMean);
  if (data.features.rows() != static_cast<Eigen::Index>(reports.num_users())) {
    throw py::value_error("the dataset has " + std::to_string(data.features.rows()) + " nodes; the reports " +
                          std::to_string(reports.num_users()) + " users");
  }
  ldpgraph::LpgnnInputs in;
  in.graph = &ds.data.graphs[0];  // replaced by the denoised graph
  in.features = &data.features;
  in.labels = &data.labels;
  in.classes = data.classes;
  in.label_epsilon = Epsilon("label_epsilon", label_epsilon, true);
  in.rectified_features = rectified;
  in.split = ldpgraph::DefaultNodeSplit(data.labels, seed);
  ldpgraph::Result<ldpgraph::DenoisedRun> run = [&] {
    py::gil_scoped_release unlocked;
    return ldpgraph::TrainOnLinkReports(reports, in, o, d);
  }();
  ldpgraph::DenoisedRun r = Take(std::move(run));
  Model m;
  m.any = std::make_shared<ldpgraph::AnyModel>();
  m.any->kind = ModelKindOf(o.kind);
  m.any->node = std::move(r.chosen.run.model);
  m.any->node_probabilities = std::move(r.chosen.probabilities);
  m.kx = r.chosen.run.kx;
  m.standardised = rectified;
  py::dict metrics;
  metrics["graph"] = r.graph;
  metrics["kx"] = r.chosen.run.kx;
  metrics["ky"] = r.chosen.run.ky;
  metrics["trainings"] = r.trainings;
  metrics["val_accuracy"] = r.chosen.run.val_accuracy;
  metrics["test_accuracy"] = r.chosen.run.test_accuracy;
  return py::make_tuple(m, metrics, WeightedCsr(r.chosen_graph.graph, std::move(r.chosen_graph.weights)));
}

}  // namespace

void BindLinkLdp(py::module_& m) {
  py::class_<ldpgraph::LinkReports>(m, "LinkReports")
      .def_property_readonly("num_users", &ldpgraph::LinkReports::num_users)
      .def("rows_csr", [](const ldpgraph::LinkReports& r) { return CsrArrays(r.rows.ToCsr()); })
      .def("degree_estimates", [](const ldpgraph::LinkReports& r) {
        return py::array_t<double>(static_cast<py::ssize_t>(r.degree.size()), r.degree.data());
      });
  m.def("simulate_link_reports", &Simulate, py::arg("indptr"), py::arg("indices"), py::arg("mechanism"),
        py::arg("epsilon"), py::arg("allocation"), py::arg("n_max"), py::arg("seed"));
  m.def("denoise_links", &Denoise, py::arg("reports"), py::arg("output"), py::arg("class_probabilities"),
        py::arg("features_of"), py::arg("em_iterations"), py::arg("soft_degree_multiple"), py::arg("seed"));
  m.def("train_on_link_reports", &TrainOnReports, py::arg("reports"), py::arg("dataset"), py::arg("denoising"),
        py::arg("model"), py::arg("label_method"), py::arg("label_epsilon"), py::arg("rectified"), py::arg("hidden"),
        py::arg("epochs"), py::arg("seed"));
}

}  // namespace ldpgraph_python
