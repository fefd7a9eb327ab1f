// ldpgraph.device: every user of a graph perturbed as her device would,
// with the SDK's own code (privacy/perturb_dataset.h).
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "bindings.h"
#include "conversions.h"
#include "privacy/perturb_dataset.h"

namespace py = pybind11;

namespace ldpgraph_python {
namespace {

// The noisy rows of the graph whose CSR arrays are `indptr` and `indices`
// (n = len(indptr) - 1), as (indptr, indices).
py::tuple PerturbCsr(const Int64Array& indptr, const Int32Array& indices, const std::string& mechanism, double epsilon,
                     py::object seed, std::uint32_t n_max) {
  ldpgraph::CsrGraph graph = GraphFromCsr(indptr, indices, "adjacency");
  if (graph.num_nodes() < 2) throw py::value_error("the graph needs at least 2 users");
  ldpgraph::PerturbOptions o;
  if (ldpgraph::Status s = ldpgraph::ParsePerturbMechanism(mechanism, &o); !s.ok()) throw py::value_error(s.message());
  o.epsilon = epsilon;
  o.n_max = n_max;
  if (!seed.is_none()) {
    o.seeded = true;
    o.seed = seed.cast<std::uint64_t>();
  }
  ldpgraph::GraphDataset ds;
  ds.format = ldpgraph::DatasetFormat::kS2v;
  ds.graphs.push_back(std::move(graph));
  ds.labels = {0};
  ds.raw_labels = {0};
  ds.num_classes = 1;
  ldpgraph::PerturbSummary summary;
  ldpgraph::Result<ldpgraph::GraphDataset> noisy = [&] {
    py::gil_scoped_release unlocked;
    return ldpgraph::PerturbDataset(ds, o, &summary);
  }();
  if (!noisy.ok()) throw py::value_error(noisy.status().message());
  return CsrArrays(std::move(noisy->graphs[0]));
}

}  // namespace

void BindDevice(py::module_& m) {
  m.def("perturb_csr", &PerturbCsr, py::arg("indptr"), py::arg("indices"), py::arg("mechanism"), py::arg("epsilon"),
        py::arg("seed"), py::arg("n_max"),
        "Every user's list through the mechanism, as her device would: (indptr, indices) of the noisy rows.");
}

}  // namespace ldpgraph_python
