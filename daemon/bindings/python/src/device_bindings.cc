// ldpgraph.device: every user of a graph perturbed as her device would,
// with the SDK's own code (privacy/perturb_dataset.h).
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "bindings.h"
#include "privacy/perturb_dataset.h"

namespace py = pybind11;

namespace ldpgraph_python {
namespace {

using Indptr = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>;
using Indices = py::array_t<std::int32_t, py::array::c_style | py::array::forcecast>;

// The noisy rows of the graph whose CSR arrays are `indptr` and `indices`
// (n = len(indptr) - 1), as (indptr, indices).
py::tuple PerturbCsr(const Indptr& indptr, const Indices& indices, const std::string& mechanism, double epsilon,
                     py::object seed, std::uint32_t n_max) {
  if (indptr.ndim() != 1 || indices.ndim() != 1) throw py::value_error("indptr and indices must be 1-d");
  const auto n = static_cast<std::size_t>(indptr.shape(0)) - 1;
  if (indptr.shape(0) < 3) throw py::value_error("the graph needs at least 2 users");
  const std::int64_t* p = indptr.data();
  const std::int32_t* t = indices.data();
  if (p[0] != 0 || p[n] != indices.shape(0)) {
    throw py::value_error("indptr must start at 0 and end at len(indices)");
  }
  std::vector<std::uint64_t> offsets(n + 1);
  std::vector<std::uint32_t> targets(static_cast<std::size_t>(indices.shape(0)));
  for (std::size_t i = 0; i <= n; ++i) {
    if (i > 0 && p[i] < p[i - 1]) throw py::value_error("indptr must not decrease (at " + std::to_string(i) + ")");
    offsets[i] = static_cast<std::uint64_t>(p[i]);
  }
  for (std::size_t k = 0; k < targets.size(); ++k) {
    if (t[k] < 0 || static_cast<std::size_t>(t[k]) >= n) {
      throw py::value_error("indices[" + std::to_string(k) + "] = " + std::to_string(t[k]) + " is not a user id in [0, " +
                            std::to_string(n) + ")");
    }
    targets[k] = static_cast<std::uint32_t>(t[k]);
  }
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
  ds.graphs.push_back(ldpgraph::CsrGraph::FromCsr(std::move(offsets), std::move(targets)));
  ds.labels = {0};
  ds.raw_labels = {0};
  ds.num_classes = 1;
  ldpgraph::PerturbSummary summary;
  ldpgraph::Result<ldpgraph::GraphDataset> noisy = [&] {
    py::gil_scoped_release unlocked;
    return ldpgraph::PerturbDataset(ds, o, &summary);
  }();
  if (!noisy.ok()) throw py::value_error(noisy.status().message());
  const ldpgraph::CsrGraph& g = noisy->graphs[0];
  py::array_t<std::int64_t> out_indptr(static_cast<py::ssize_t>(g.offsets().size()));
  py::array_t<std::int32_t> out_indices(static_cast<py::ssize_t>(g.offsets().back()));
  std::int64_t* op = out_indptr.mutable_data();
  std::int32_t* ot = out_indices.mutable_data();
  for (std::size_t i = 0; i < g.offsets().size(); ++i) op[i] = static_cast<std::int64_t>(g.offsets()[i]);
  std::size_t k = 0;
  for (std::uint32_t u = 0; u < g.num_nodes(); ++u) {
    for (std::uint32_t v : g.neighbours(u)) ot[k++] = static_cast<std::int32_t>(v);
  }
  return py::make_tuple(out_indptr, out_indices);
}

}  // namespace

void BindDevice(py::module_& m) {
  m.def("perturb_csr", &PerturbCsr, py::arg("indptr"), py::arg("indices"), py::arg("mechanism"), py::arg("epsilon"),
        py::arg("seed"), py::arg("n_max"),
        "Every user's list through the mechanism, as her device would: (indptr, indices) of the noisy rows.");
}

}  // namespace ldpgraph_python
