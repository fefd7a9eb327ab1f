// The dataset a Python user hands to ldpgraph.server: the engine's
// GraphDataset (one node graph, or a set of graphs) and, for dense node
// features given as a float32 C-contiguous numpy array, a view of that
// array's own memory together with the array itself (kept alive here).
#ifndef LDPGRAPH_DAEMON_BINDINGS_PYTHON_DATASET_H_
#define LDPGRAPH_DAEMON_BINDINGS_PYTHON_DATASET_H_

#include <pybind11/pybind11.h>

#include "dataset/graph_dataset.h"
#include "engine/node_features.h"
#include "train/task_data.h"

namespace ldpgraph_python {

struct Dataset {
  ldpgraph::GraphDataset data;
  ldpgraph::NodeFeatures view;  // borrowed dense features (when has_view)
  bool has_view = false;
  pybind11::object owner;       // the numpy array `view` reads

  bool is_node() const { return data.format == ldpgraph::DatasetFormat::kCsv; }
  // What node models read in place of the dataset's own features (null: those).
  const ldpgraph::NodeFeatures* features() const { return has_view ? &view : nullptr; }
};

// The node task (graph prepared with `aggregation`, labels, features: the
// borrowed ones when there are) of a node dataset; ValueError when it has none.
ldpgraph::NodeTaskData NodeTask(const Dataset& ds, ldpgraph::Aggregation aggregation);

// Raises ValueError naming the task unless `ds` is a node dataset (or a graph set).
void RequireNodeDataset(const Dataset& ds, const char* task);
void RequireGraphSet(const Dataset& ds, const char* task);

}  // namespace ldpgraph_python

#endif  // LDPGRAPH_DAEMON_BINDINGS_PYTHON_DATASET_H_
