// The parts of the _ldpgraph module, one per file.
#ifndef LDPGRAPH_DAEMON_BINDINGS_PYTHON_BINDINGS_H_
#define LDPGRAPH_DAEMON_BINDINGS_PYTHON_BINDINGS_H_

#include <pybind11/pybind11.h>

namespace ldpgraph_python {

// The device's mechanisms over whole graphs (device_bindings.cc).
void BindDevice(pybind11::module_& m);
// The RDP accountant (accountant_bindings.cc).
void BindAccountant(pybind11::module_& m);

}  // namespace ldpgraph_python

#endif  // LDPGRAPH_DAEMON_BINDINGS_PYTHON_BINDINGS_H_
