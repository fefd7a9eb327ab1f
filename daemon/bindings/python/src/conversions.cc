#include "conversions.h"

#include <cmath>
#include <vector>

namespace ldpgraph_python {

void Raise(const ldpgraph::Status& status) {
  using ldpgraph::StatusCode;
  const std::string& m = status.message();
  switch (status.code()) {
    case StatusCode::kInvalidArgument:
    case StatusCode::kOutOfRange:
    case StatusCode::kDataLoss:
      throw py::value_error(m);
    case StatusCode::kUnavailable: {
      PyErr_SetString(PyExc_OSError, m.c_str());
      throw py::error_already_set();
    }
    case StatusCode::kResourceExhausted:
      throw BudgetExhausted(m);
    default:
      throw std::runtime_error(std::string(ldpgraph::StatusCodeName(status.code())) + ": " + m);
  }
}

namespace {

// indptr's values as offsets, checked against `entries`.
std::vector<std::uint64_t> Offsets(const Int64Array& indptr, std::int64_t entries, const std::string& name) {
  if (indptr.ndim() != 1 || indptr.shape(0) < 1) throw py::value_error(name + ": indptr must be 1-d and non-empty");
  const std::int64_t* p = indptr.data();
  const auto n = static_cast<std::size_t>(indptr.shape(0) - 1);
  if (p[0] != 0 || p[n] != entries) throw py::value_error(name + ": indptr must start at 0 and end at len(indices)");
  std::vector<std::uint64_t> offsets(n + 1);
  for (std::size_t i = 0; i <= n; ++i) {
    if (i > 0 && p[i] < p[i - 1]) {
      throw py::value_error(name + ": indptr decreases at row " + std::to_string(i - 1));
    }
    offsets[i] = static_cast<std::uint64_t>(p[i]);
  }
  return offsets;
}

}  // namespace

ldpgraph::CsrGraph GraphFromCsr(const Int64Array& indptr, const Int32Array& indices, const std::string& name) {
  if (indices.ndim() != 1) throw py::value_error(name + ": indices must be 1-d");
  std::vector<std::uint64_t> offsets = Offsets(indptr, indices.shape(0), name);
  const std::size_t n = offsets.size() - 1;
  if (n > 0xFFFFFFFEu) throw py::value_error(name + ": more than 2^32 - 2 nodes");
  const std::int32_t* t = indices.data();
  std::vector<std::uint32_t> targets(static_cast<std::size_t>(indices.shape(0)));
  for (std::size_t u = 0; u < n; ++u) {
    for (std::uint64_t k = offsets[u]; k < offsets[u + 1]; ++k) {
      if (t[k] < 0 || static_cast<std::size_t>(t[k]) >= n) {
        throw py::value_error(name + ": node " + std::to_string(u) + " has neighbour " + std::to_string(t[k]) +
                              ", not a node id in [0, " + std::to_string(n) + ")");
      }
      if (static_cast<std::size_t>(t[k]) == u) {
        throw py::value_error(name + ": node " + std::to_string(u) + " is its own neighbour (a self-loop)");
      }
      if (k > offsets[u] && t[k] <= t[k - 1]) {
        throw py::value_error(name + ": row " + std::to_string(u) + " is not sorted and unique");
      }
      targets[k] = static_cast<std::uint32_t>(t[k]);
    }
  }
  return ldpgraph::CsrGraph::FromCsr(std::move(offsets), std::move(targets));
}

ldpgraph::SparseMatrix SparseFromCsr(const Int64Array& indptr, const Int32Array& indices, const py::object& data,
                                     std::int64_t cols, const std::string& name) {
  if (indices.ndim() != 1) throw py::value_error(name + ": indices must be 1-d");
  std::vector<std::uint64_t> offsets = Offsets(indptr, indices.shape(0), name);
  ldpgraph::SparseMatrix x;
  x.rows = static_cast<std::int64_t>(offsets.size() - 1);
  x.cols = cols;
  x.offsets.assign(offsets.begin(), offsets.end());
  const std::int32_t* t = indices.data();
  x.indices.assign(t, t + indices.shape(0));
  for (std::int64_t r = 0; r < x.rows; ++r) {
    for (std::int64_t k = x.offsets[r]; k < x.offsets[r + 1]; ++k) {
      if (t[k] < 0 || t[k] >= cols) {
        throw py::value_error(name + ": row " + std::to_string(r) + " has column " + std::to_string(t[k]) +
                              ", outside [0, " + std::to_string(cols) + ")");
      }
      if (k > x.offsets[r] && t[k] <= t[k - 1]) {
        throw py::value_error(name + ": row " + std::to_string(r) + " is not sorted and unique");
      }
    }
  }
  if (data.is_none()) return x;
  const Float32Array values = Float32Array::ensure(data);
  if (!values || values.ndim() != 1 || values.shape(0) != indices.shape(0)) {
    throw py::value_error(name + ": data must hold one number per index");
  }
  bool unit = true;
  for (py::ssize_t k = 0; k < values.shape(0); ++k) {
    if (!std::isfinite(values.data()[k])) {
      throw py::value_error(name + ": data[" + std::to_string(k) + "] is not finite");
    }
    unit = unit && values.data()[k] == 1.0f;
  }
  if (!unit) x.values.assign(values.data(), values.data() + values.shape(0));
  return x;
}

py::tuple CsrArrays(const ldpgraph::CsrGraph& graph) {
  const auto& offsets = graph.offsets();
  py::array_t<std::int64_t> indptr(static_cast<py::ssize_t>(offsets.size()));
  py::array_t<std::int32_t> indices(static_cast<py::ssize_t>(offsets.back()));
  std::int64_t* p = indptr.mutable_data();
  std::int32_t* t = indices.mutable_data();
  for (std::size_t i = 0; i < offsets.size(); ++i) p[i] = static_cast<std::int64_t>(offsets[i]);
  std::size_t k = 0;
  for (std::uint32_t u = 0; u < graph.num_nodes(); ++u) {
    for (std::uint32_t v : graph.neighbours(u)) t[k++] = static_cast<std::int32_t>(v);
  }
  return py::make_tuple(indptr, indices);
}

namespace {

// A 1-d numpy array of `T` over the vector's memory, owning the vector.
template <typename T, typename V>
py::array_t<T> Adopt(std::vector<V> v) {
  static_assert(sizeof(T) == sizeof(V), "a view of the same bytes");
  auto* held = new std::vector<V>(std::move(v));
  py::capsule owner(held, [](void* p) { delete static_cast<std::vector<V>*>(p); });
  return py::array_t<T>(static_cast<py::ssize_t>(held->size()), reinterpret_cast<const T*>(held->data()), owner);
}

}  // namespace

py::tuple CsrArrays(ldpgraph::CsrGraph&& graph) {
  if (graph.num_nodes() > 0x7FFFFFFFu) return CsrArrays(static_cast<const ldpgraph::CsrGraph&>(graph));
  std::vector<std::uint64_t> offsets;  // < 2^63 and ids < 2^31: the same values as int64 and int32
  std::vector<std::uint32_t> targets;
  graph.Release(&offsets, &targets);
  return py::make_tuple(Adopt<std::int64_t>(std::move(offsets)), Adopt<std::int32_t>(std::move(targets)));
}

py::array_t<float> ToNumpy(ldpgraph::Matrix m) {
  auto* held = new ldpgraph::Matrix(std::move(m));
  py::capsule owner(held, [](void* p) { delete static_cast<ldpgraph::Matrix*>(p); });
  return py::array_t<float>({held->rows(), held->cols()}, held->data(), owner);
}

py::array_t<double> ToNumpy(Eigen::MatrixXd m) {
  auto* held = new Eigen::MatrixXd(std::move(m));  // column-major: Fortran order
  py::capsule owner(held, [](void* p) { delete static_cast<Eigen::MatrixXd*>(p); });
  const auto s = static_cast<py::ssize_t>(sizeof(double));
  return py::array_t<double>({held->rows(), held->cols()}, {s, s * held->rows()}, held->data(), owner);
}

Eigen::MatrixXd ToEigen(const py::array& a, const std::string& name) {
  const Float64Array d = Float64Array::ensure(a);
  if (!d || d.ndim() != 2) throw py::value_error(name + " must be a 2-d array of numbers");
  Eigen::MatrixXd out(d.shape(0), d.shape(1));
  for (py::ssize_t i = 0; i < d.shape(0); ++i) {
    for (py::ssize_t j = 0; j < d.shape(1); ++j) {
      const double v = d.data()[i * d.shape(1) + j];
      if (!std::isfinite(v)) {
        throw py::value_error(name + "[" + std::to_string(i) + ", " + std::to_string(j) + "] is not finite");
      }
      out(i, j) = v;
    }
  }
  return out;
}

}  // namespace ldpgraph_python
