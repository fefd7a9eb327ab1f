// _ldpgraph: the extension module under the `ldpgraph` package. Each part
// registers its functions in its own file.
#include <pybind11/pybind11.h>

#include "bindings.h"
#include "conversions.h"

PYBIND11_MODULE(_ldpgraph, m) {
  m.doc() = "ldpgraph's native part; use the ldpgraph package";
  pybind11::register_exception<ldpgraph_python::BudgetExhausted>(m, "BudgetExhausted", PyExc_RuntimeError);
  ldpgraph_python::BindDevice(m);
  ldpgraph_python::BindMechanisms(m);
  ldpgraph_python::BindReports(m);
  ldpgraph_python::BindAccountant(m);
  ldpgraph_python::BindDatasets(m);
  ldpgraph_python::BindModels(m);
  ldpgraph_python::BindTraining(m);
  ldpgraph_python::BindLinkLdp(m);
  ldpgraph_python::BindGw(m);
  ldpgraph_python::BindFederation(m);
}
