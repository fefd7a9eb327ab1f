// Crossing between numpy and the engine: CSR arrays into graphs and sparse
// matrices (checked, errors naming the argument), engine matrices out as
// numpy arrays that own them (moved, not copied), and Status into Python
// exceptions.
#ifndef LDPGRAPH_DAEMON_BINDINGS_PYTHON_CONVERSIONS_H_
#define LDPGRAPH_DAEMON_BINDINGS_PYTHON_CONVERSIONS_H_

#include <cstdint>
#include <stdexcept>
#include <string>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "engine/matrix.h"
#include "engine/sparse_matrix.h"
#include "graph/csr_graph.h"
#include "ldpgraph/status.h"

namespace ldpgraph_python {

namespace py = pybind11;

using Int64Array = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>;
using Int32Array = py::array_t<std::int32_t, py::array::c_style | py::array::forcecast>;
using Float32Array = py::array_t<float, py::array::c_style | py::array::forcecast>;
using Float64Array = py::array_t<double, py::array::c_style | py::array::forcecast>;

// What a spent budget raises in Python (ldpgraph.BudgetExhausted, a RuntimeError).
struct BudgetExhausted : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Raises the Python exception for `status` (which must not be OK):
// ValueError for bad input and corrupt data, OSError when a file or the OS
// failed, ldpgraph.BudgetExhausted for a spent budget, RuntimeError else.
[[noreturn]] void Raise(const ldpgraph::Status& status);
inline void Check(const ldpgraph::Status& status) {
  if (!status.ok()) Raise(status);
}
template <typename T>
T Take(ldpgraph::Result<T> result) {
  if (!result.ok()) Raise(result.status());
  return std::move(result).value();
}

// The graph whose row u is indices[indptr[u]:indptr[u+1]] (sorted, unique,
// no self-loop, each < n = len(indptr) - 1). ValueError naming `name`.
ldpgraph::CsrGraph GraphFromCsr(const Int64Array& indptr, const Int32Array& indices, const std::string& name);
// A rows x cols sparse matrix from CSR arrays; `data` none (all ones) or
// one finite value per index; all-ones data is stored without weights.
ldpgraph::SparseMatrix SparseFromCsr(const Int64Array& indptr, const Int32Array& indices, const py::object& data,
                                     std::int64_t cols, const std::string& name);
// (indptr int64, indices int32) of `graph`'s rows, copied.
py::tuple CsrArrays(const ldpgraph::CsrGraph& graph);
// The same, the graph's own arrays moved into numpy (no copy; the graph is left empty).
py::tuple CsrArrays(ldpgraph::CsrGraph&& graph);
// A numpy array that owns `m` (moved into it).
py::array_t<float> ToNumpy(ldpgraph::Matrix m);
py::array_t<double> ToNumpy(Eigen::MatrixXd m);
// A float64 2-d array as a column-major Eigen matrix (copied), checking
// every entry is finite; ValueError naming `name`.
Eigen::MatrixXd ToEigen(const py::array& a, const std::string& name);

}  // namespace ldpgraph_python

#endif  // LDPGRAPH_DAEMON_BINDINGS_PYTHON_CONVERSIONS_H_
