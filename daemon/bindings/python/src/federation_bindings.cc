// FedCog-SGC with every party in this process (federation/federated_sgc.h):
// the graph dealt to parties, the decoupled propagation, then the federated
// training; the parties' own daemons exchange the same messages over TLS.
#include <string>

#include <pybind11/stl.h>

#include "bindings.h"
#include "checks.h"
#include "conversions.h"
#include "dataset.h"
#include "federation/coupled_graph.h"
#include "federation/federated_sgc.h"
#include "federation/partition.h"
#include "federation/party_inputs.h"
#include "train/node_pipeline.h"
#include "train/task_data.h"

namespace ldpgraph_python {
namespace {

py::tuple FedcogSgc(const Dataset& ds, const py::object& party_of, const std::string& partition, int parties, int steps,
                    int epochs, float lr, float weight_decay, std::uint64_t seed) {
  RequireNodeDataset(ds, "fedcog_sgc");
  const ldpgraph::CsrGraph& graph = ds.data.graphs[0];
  const std::uint32_t n = graph.num_nodes();
  std::vector<int> owner;
  if (party_of.is_none()) {
    InRange("parties", parties, 1, 1024);
    owner = Take(ldpgraph::PartitionUsers(graph, partition, parties, seed));
  } else {
    const Int64Array a = Int64Array::ensure(party_of);
    if (!a || a.ndim() != 1 || a.shape(0) != static_cast<py::ssize_t>(n)) {
      throw py::value_error("party_of must hold one party index per node (" + std::to_string(n) + ")");
    }
    parties = 0;
    for (py::ssize_t i = 0; i < a.shape(0); ++i) {
      InRange("party_of[i]", a.data()[i], std::int64_t{0}, std::int64_t{1023});
      owner.push_back(static_cast<int>(a.data()[i]));
      parties = std::max(parties, owner.back() + 1);
    }
  }
  ldpgraph::FederatedSgcOptions o;
  o.max_epochs = InRange("epochs", epochs, 1, 100000);
  o.lr = InRange("lr", lr, 1e-9f, 10.0f);
  o.weight_decay = InRange("weight_decay", weight_decay, 0.0f, 1.0f);
  o.seed = seed;
  InRange("steps", steps, 0, 64);
  const ldpgraph::NodeTaskData data = NodeTask(ds, ldpgraph::Aggregation::kGcn);
  const ldpgraph::Split roles = ldpgraph::DefaultNodeSplit(data.labels, seed);
  std::uint64_t propagation_bytes = 0;
  ldpgraph::Result<ldpgraph::FederatedSgcRun> run = [&]() -> ldpgraph::Result<ldpgraph::FederatedSgcRun> {
    py::gil_scoped_release unlocked;
    ldpgraph::Result<std::vector<ldpgraph::PartyGraph>> split = ldpgraph::DecoupleGraph(graph, owner, parties);
    if (!split.ok()) return split.status();
    const ldpgraph::PartyInputs inputs = ldpgraph::MakePartyInputs(*split, data.features.ToDense(), data.labels, roles);
    ldpgraph::Result<std::vector<ldpgraph::Matrix>> propagated =
        ldpgraph::DecoupledPropagate(*split, inputs.features, steps, &propagation_bytes);
    if (!propagated.ok()) return propagated.status();
    return ldpgraph::TrainFederatedSgc(*propagated, inputs.tasks, data.classes, o);
  }();
  ldpgraph::FederatedSgcRun r = Take(std::move(run));
  py::list weights;
  for (ldpgraph::Matrix& w : r.weights) weights.append(ToNumpy(std::move(w)));
  py::dict metrics;
  metrics["parties"] = parties;
  metrics["cross_edges"] = ldpgraph::CrossEdges(graph, owner);
  metrics["val_accuracy"] = r.val_accuracy;
  metrics["test_accuracy"] = r.test_accuracy;
  metrics["best_epoch"] = r.best_epoch;
  metrics["propagation_bytes"] = propagation_bytes;
  metrics["training_bytes"] = r.training_bytes;
  return py::make_tuple(weights, metrics);
}

}  // namespace

void BindFederation(py::module_& m) {
  m.def("fedcog_sgc", &FedcogSgc, py::arg("dataset"), py::arg("party_of"), py::arg("partition"), py::arg("parties"),
        py::arg("steps"), py::arg("epochs"), py::arg("lr"), py::arg("weight_decay"), py::arg("seed"));
}

}  // namespace ldpgraph_python
