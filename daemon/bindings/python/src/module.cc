// _ldpgraph: the extension module under the `ldpgraph` package. Each part
// registers its functions in its own file.
#include <pybind11/pybind11.h>

#include "bindings.h"

PYBIND11_MODULE(_ldpgraph, m) {
  m.doc() = "ldpgraph's native part; use the ldpgraph package";
  ldpgraph_python::BindDevice(m);
  ldpgraph_python::BindAccountant(m);
}
