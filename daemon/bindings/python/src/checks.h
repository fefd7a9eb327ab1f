// Argument checks shared by the bindings: a ValueError naming the argument,
// its allowed range and the value given.
#ifndef LDPGRAPH_DAEMON_BINDINGS_PYTHON_CHECKS_H_
#define LDPGRAPH_DAEMON_BINDINGS_PYTHON_CHECKS_H_

#include <cmath>
#include <sstream>
#include <string>

#include <pybind11/pybind11.h>

namespace ldpgraph_python {

template <typename T>
T InRange(const char* name, T value, T low, T high) {
  if (!(value >= low && value <= high)) {  // NaN fails too
    std::ostringstream m;
    m << name << " must be in [" << low << ", " << high << "], got " << value;
    throw pybind11::value_error(m.str());
  }
  return value;
}

// A privacy budget: positive, and finite unless `infinite_ok` (no privacy).
inline double Epsilon(const char* name, double value, bool infinite_ok) {
  if (!(value > 0) || (!infinite_ok && !std::isfinite(value))) {
    std::ostringstream m;
    m << name << " must be a positive " << (infinite_ok ? "number (inf: no privacy)" : "finite number") << ", got "
      << value;
    throw pybind11::value_error(m.str());
  }
  return value;
}

}  // namespace ldpgraph_python

#endif  // LDPGRAPH_DAEMON_BINDINGS_PYTHON_CHECKS_H_
