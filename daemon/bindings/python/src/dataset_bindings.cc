// ldpgraph.server's datasets: a node graph with labels and features, or a
// set of labelled graphs, from numpy and scipy arrays or from a file in one
// of the formats the CLI reads.
#include <cmath>
#include <string>

#include "bindings.h"
#include "conversions.h"
#include "dataset.h"

namespace ldpgraph_python {

ldpgraph::NodeTaskData NodeTask(const Dataset& ds, ldpgraph::Aggregation aggregation) {
  return Take(ds.features() != nullptr ? ldpgraph::MakeNodeTaskData(ds.data, aggregation, *ds.features())
                                       : ldpgraph::MakeNodeTaskData(ds.data, aggregation));
}

void RequireNodeDataset(const Dataset& ds, const char* task) {
  if (!ds.is_node()) {
    throw py::value_error(std::string(task) + " classifies nodes: give a node dataset (node_dataset or a CSV folder)");
  }
}

void RequireGraphSet(const Dataset& ds, const char* task) {
  if (ds.is_node()) {
    throw py::value_error(std::string(task) + " classifies graphs: give a graph set (graph_dataset, s2v or TU)");
  }
}

namespace {

std::vector<std::int64_t> Labels(const py::object& labels, std::size_t count, const char* what) {
  const Int64Array a = Int64Array::ensure(labels);
  if (!a || a.ndim() != 1 || static_cast<std::size_t>(a.shape(0)) != count) {
    throw py::value_error(std::string("labels must be a 1-d integer array with one label per ") + what + " (" +
                          std::to_string(count) + ")");
  }
  return std::vector<std::int64_t>(a.data(), a.data() + a.shape(0));
}

// Dense features: a float32 C-contiguous array is read where it is;
// anything else is converted once into one, which the dataset then holds.
void SetDenseFeatures(Dataset* ds, const py::array& features) {
  Float32Array x = Float32Array::ensure(features);
  if (!x || x.ndim() != 2) throw py::value_error("features must be a 2-d array (nodes x dims)");
  if (x.shape(1) < 1 || x.shape(1) > (1 << 24)) throw py::value_error("features must have 1 to 2^24 columns");
  const float* data = x.data();
  for (py::ssize_t i = 0; i < x.size(); ++i) {
    if (!std::isfinite(data[i])) {
      throw py::value_error("features[" + std::to_string(i / x.shape(1)) + ", " + std::to_string(i % x.shape(1)) +
                            "] is not finite");
    }
  }
  ds->view = ldpgraph::NodeFeatures::DenseView(data, x.shape(0), x.shape(1));
  ds->has_view = true;
  ds->owner = x;
  ds->data.feature_dims = static_cast<std::uint32_t>(x.shape(1));
}

Dataset NodeDataset(const Int64Array& indptr, const Int32Array& indices, const py::object& labels,
                    const py::object& features, const std::string& name) {
  Dataset ds;
  ds.data.format = ldpgraph::DatasetFormat::kCsv;
  ds.data.name = name;
  ds.data.graphs.push_back(GraphFromCsr(indptr, indices, "adjacency"));
  const std::size_t n = ds.data.graphs[0].num_nodes();
  if (!labels.is_none()) ds.data.node_labels = Labels(labels, n, "node");
  if (features.is_none()) {
    // no features: models read the constant 1, as the CLI without features.csv
  } else if (py::isinstance<py::tuple>(features)) {
    // scipy.sparse CSR: (indptr, indices, data, cols)
    auto parts = features.cast<py::tuple>();
    if (parts.size() != 4) throw py::value_error("sparse features must be (indptr, indices, data, cols)");
    const auto cols = parts[3].cast<std::int64_t>();
    if (cols < 1 || cols > (1 << 24)) throw py::value_error("features must have 1 to 2^24 columns");
    ds.data.node_features = SparseFromCsr(parts[0].cast<Int64Array>(), parts[1].cast<Int32Array>(), parts[2], cols,
                                          "features");
    if (ds.data.node_features.rows != static_cast<std::int64_t>(n)) {
      throw py::value_error("features have " + std::to_string(ds.data.node_features.rows) + " rows; the graph has " +
                            std::to_string(n) + " nodes");
    }
    ds.data.feature_dims = static_cast<std::uint32_t>(cols);
  } else {
    SetDenseFeatures(&ds, features.cast<py::array>());
    if (ds.view.rows() != static_cast<Eigen::Index>(n)) {
      throw py::value_error("features have " + std::to_string(ds.view.rows()) + " rows; the graph has " +
                            std::to_string(n) + " nodes");
    }
  }
  return ds;
}

Dataset GraphSet(const py::list& graphs, const py::object& labels, const py::object& node_tags,
                 const std::string& name) {
  Dataset ds;
  ds.data.format = ldpgraph::DatasetFormat::kS2v;
  ds.data.name = name;
  if (graphs.size() == 0) throw py::value_error("graphs must not be empty");
  for (std::size_t i = 0; i < graphs.size(); ++i) {
    auto csr = graphs[i].cast<py::tuple>();
    ds.data.graphs.push_back(
        GraphFromCsr(csr[0].cast<Int64Array>(), csr[1].cast<Int32Array>(), "graphs[" + std::to_string(i) + "]"));
    if (ds.data.graphs.back().num_nodes() == 0) throw py::value_error("graphs[" + std::to_string(i) + "] has no node");
  }
  ds.data.raw_labels = Labels(labels, graphs.size(), "graph");
  ldpgraph::MapLabels(&ds.data);
  if (!node_tags.is_none()) {
    ds.data.node_tags = Labels(node_tags, ds.data.num_nodes(), "node of all graphs, graph after graph (node_tags)");
  }
  return ds;
}

Dataset Read(const std::string& path) {
  Dataset ds;
  ds.data = Take(ldpgraph::ReadDataset(path));
  return ds;
}

}  // namespace

void BindDatasets(py::module_& m) {
  py::class_<Dataset>(m, "Dataset")
      .def_property_readonly("kind", [](const Dataset& d) { return d.is_node() ? "node" : "graphs"; })
      .def_property_readonly("name", [](const Dataset& d) { return d.data.name; })
      .def_property_readonly("num_graphs", [](const Dataset& d) { return d.data.graphs.size(); })
      .def_property_readonly("num_nodes", [](const Dataset& d) { return d.data.num_nodes(); })
      .def_property_readonly("num_classes", [](const Dataset& d) { return d.data.num_classes; })
      .def_property_readonly("feature_dims", [](const Dataset& d) { return d.data.feature_dims; })
      .def_property_readonly("features_borrowed", [](const Dataset& d) { return d.has_view; })
      .def("_feature_address",
           [](const Dataset& d) { return d.has_view ? reinterpret_cast<std::uintptr_t>(d.view.dense().data()) : 0; })
      .def("adjacency_csr", [](const Dataset& d, std::size_t i) {
             if (i >= d.data.graphs.size()) throw py::index_error("graph " + std::to_string(i) + " out of range");
             return CsrArrays(d.data.graphs[i]);
           }, py::arg("graph") = 0)
      .def("node_labels", [](const Dataset& d) {
             return py::array_t<std::int64_t>(static_cast<py::ssize_t>(d.data.node_labels.size()),
                                              d.data.node_labels.data());
           })
      .def("graph_labels", [](const Dataset& d) {
             return py::array_t<std::int64_t>(static_cast<py::ssize_t>(d.data.raw_labels.size()),
                                              d.data.raw_labels.data());
           });
  m.def("node_dataset", &NodeDataset, py::arg("indptr"), py::arg("indices"), py::arg("labels"), py::arg("features"),
        py::arg("name"));
  m.def("graph_dataset", &GraphSet, py::arg("graphs"), py::arg("labels"), py::arg("node_tags"), py::arg("name"));
  m.def("read_dataset", &Read, py::arg("path"), py::call_guard<py::gil_scoped_release>());
}

}  // namespace ldpgraph_python
