// ldpgraph.server's RDP accountant: the epsilon of subsampled Gaussian
// releases, and the noise multiplier for a target epsilon
// (privacy/rdp_accountant.h; the accountant of GAP and DP-SGD).
#include <pybind11/pybind11.h>

#include "bindings.h"
#include "privacy/rdp_accountant.h"

namespace py = pybind11;

namespace ldpgraph_python {
namespace {

double Epsilon(double noise_multiplier, double sampling_rate, std::int64_t steps, double delta) {
  ldpgraph::RdpAccountant accountant;
  if (ldpgraph::Status s = accountant.Add({noise_multiplier, sampling_rate, steps}); !s.ok()) {
    throw py::value_error(s.message());
  }
  ldpgraph::Result<double> e = accountant.Epsilon(delta);
  if (!e.ok()) throw py::value_error(e.status().message());
  return *e;
}

double NoiseMultiplier(double epsilon, double sampling_rate, std::int64_t steps, double delta) {
  ldpgraph::Result<double> s = ldpgraph::CalibrateNoiseMultiplier(
      [&](double multiplier) { return std::vector<ldpgraph::GaussianRelease>{{multiplier, sampling_rate, steps}}; },
      epsilon, delta);
  if (!s.ok()) throw py::value_error(s.status().message());
  return *s;
}

}  // namespace

void BindAccountant(py::module_& m) {
  m.def("rdp_epsilon", &Epsilon, py::arg("noise_multiplier"), py::arg("sampling_rate"), py::arg("steps"),
        py::arg("delta"), "The epsilon of `steps` subsampled Gaussian releases (tight RDP conversion).");
  m.def("rdp_noise_multiplier", &NoiseMultiplier, py::arg("epsilon"), py::arg("sampling_rate"), py::arg("steps"),
        py::arg("delta"), "The smallest noise multiplier whose releases are (epsilon, delta)-DP.");
}

}  // namespace ldpgraph_python
