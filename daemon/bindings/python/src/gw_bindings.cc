// Gromov-Wasserstein and fused GW between two graphs (gw/gromov_wasserstein.h),
// and the distance matrices they compare (gw/graph_space.h).
#include <string>

#include "bindings.h"
#include "checks.h"
#include "conversions.h"
#include "gw/graph_space.h"
#include "gw/gromov_wasserstein.h"

namespace ldpgraph_python {
namespace {

py::array_t<double> Distances(const Int64Array& indptr, const Int32Array& indices, const std::string& structure) {
  ldpgraph::GraphDataset one;
  one.graphs.push_back(GraphFromCsr(indptr, indices, "adjacency"));
  if (one.graphs[0].num_nodes() == 0) throw py::value_error("adjacency: the graph has no node");
  if (one.graphs[0].num_nodes() > 20000) throw py::value_error("adjacency: at most 20000 nodes (n^2 distances)");
  const ldpgraph::GwStructure s = Take(ldpgraph::ParseGwStructure(structure));
  std::vector<ldpgraph::GraphSpace> spaces = Take(ldpgraph::GraphSpaces(one, s));
  return ToNumpy(std::move(spaces[0].structure));
}

py::tuple Gw(const py::array& c, const py::array& d, const py::object& feature_cost, double alpha, int random_starts,
             std::uint64_t seed) {
  const Eigen::MatrixXd a = ToEigen(c, "c"), b = ToEigen(d, "d");
  const Eigen::MatrixXd m = feature_cost.is_none() ? Eigen::MatrixXd() : ToEigen(feature_cost, "feature_cost");
  ldpgraph::GwOptions o = random_starts == 0 ? ldpgraph::GwOptions::ProductStartOnly() : ldpgraph::GwOptions();
  if (random_starts != 0) o.random_starts = InRange("random_starts", random_starts, -1, 1024);
  o.seed = seed;
  ldpgraph::Result<ldpgraph::GwResult> r = [&] {
    py::gil_scoped_release unlocked;
    return ldpgraph::GromovWasserstein(a, b, m, alpha, o);
  }();
  ldpgraph::GwResult out = Take(std::move(r));
  return py::make_tuple(out.value, ToNumpy(std::move(out.coupling)));
}

py::array_t<double> Cost(const py::array& x, const py::array& y) {
  const Eigen::MatrixXd a = ToEigen(x, "x"), b = ToEigen(y, "y");
  if (a.cols() != b.cols()) {
    throw py::value_error("x and y need the same number of feature columns, got " + std::to_string(a.cols()) +
                          " and " + std::to_string(b.cols()));
  }
  return ToNumpy(ldpgraph::FeatureCost(a, b));
}

}  // namespace

void BindGw(py::module_& m) {
  m.def("graph_distances", &Distances, py::arg("indptr"), py::arg("indices"), py::arg("structure"));
  m.def("gromov_wasserstein", &Gw, py::arg("c"), py::arg("d"), py::arg("feature_cost"), py::arg("alpha"),
        py::arg("random_starts"), py::arg("seed"));
  m.def("feature_cost", &Cost, py::arg("x"), py::arg("y"));
}

}  // namespace ldpgraph_python
