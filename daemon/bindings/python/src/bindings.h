// The parts of the _ldpgraph module, one per file.
#ifndef LDPGRAPH_DAEMON_BINDINGS_PYTHON_BINDINGS_H_
#define LDPGRAPH_DAEMON_BINDINGS_PYTHON_BINDINGS_H_

#include <pybind11/pybind11.h>

namespace ldpgraph_python {

// The device's mechanisms over whole graphs (device_bindings.cc).
void BindDevice(pybind11::module_& m);
// The RDP accountant (accountant_bindings.cc).
void BindAccountant(pybind11::module_& m);
// The device's mechanisms one user at a time (mechanism_bindings.cc).
void BindMechanisms(pybind11::module_& m);
// Reports, their wire format and the budget ledger (report_bindings.cc).
void BindReports(pybind11::module_& m);
// Datasets from arrays or files (dataset_bindings.cc).
void BindDatasets(pybind11::module_& m);
// Training of every model kind (training_bindings.cc).
void BindTraining(pybind11::module_& m);
// Model files and predictions (model_bindings.cc).
void BindModels(pybind11::module_& m);
// Link-LDP reports, denoising and training on them (linkldp_bindings.cc).
void BindLinkLdp(pybind11::module_& m);
// Gromov-Wasserstein (gw_bindings.cc).
void BindGw(pybind11::module_& m);
// FedCog-SGC in-process (federation_bindings.cc).
void BindFederation(pybind11::module_& m);

}  // namespace ldpgraph_python

#endif  // LDPGRAPH_DAEMON_BINDINGS_PYTHON_BINDINGS_H_
