// ldpgraph.device's mechanisms one user at a time, as the SDK runs them on a
// phone: the edge randomizers (DPRR, RR, RR with degree, LocalLap), the
// multi-bit feature encoder with the server's rectifier, and label RR; and
// the LPGNN study's feature perturbation of a whole matrix at once.
#include <cmath>
#include <string>
#include <vector>

#include <pybind11/stl.h>

#include "bindings.h"
#include "checks.h"
#include "conversions.h"
#include "ldpgraph/edge_mechanism.h"
#include "ldpgraph/edge_randomizers.h"
#include "ldpgraph/label_rr.h"
#include "ldpgraph/multibit.h"
#include "privacy/feature_mechanisms.h"
#include "rng.h"

namespace ldpgraph_python {
namespace {

using UInt32Array = py::array_t<std::uint32_t, py::array::c_style | py::array::forcecast>;

Rng MakeRng(const py::object& seed) {
  Rng r;
  if (seed.is_none()) {
    r.source = Take(ldpgraph::OsRandomSource::Create());
  } else {
    if (py::int_(seed).cast<long long>() < 0) throw py::value_error("seed must be a non-negative int");
    r.source = std::make_unique<ldpgraph::SeededRandomSource>(seed.cast<std::uint64_t>());
    r.seeded = true;
  }
  return r;
}

std::vector<std::uint32_t> Ids(const py::object& ids, const char* name) {
  const Int64Array a = Int64Array::ensure(ids);
  if (!a || a.ndim() != 1) throw py::value_error(std::string(name) + " must be a 1-d array of user ids");
  std::vector<std::uint32_t> out;
  out.reserve(static_cast<std::size_t>(a.shape(0)));
  for (py::ssize_t k = 0; k < a.shape(0); ++k) {
    if (a.data()[k] < 0 || a.data()[k] > 0xFFFFFFFFll) {
      throw py::value_error(std::string(name) + "[" + std::to_string(k) + "] = " + std::to_string(a.data()[k]) +
                            " is not a user id");
    }
    out.push_back(static_cast<std::uint32_t>(a.data()[k]));
  }
  return out;
}

py::dict NoisyEdgesDict(const ldpgraph::NoisyEdges& e) {
  py::dict d;
  d["mechanism"] = ldpgraph::EdgeMechanismName(e.mechanism);
  d["epsilon"] = e.epsilon;
  d["eps1"] = e.eps1;
  d["eps2"] = e.eps2;
  d["p"] = e.p;
  d["q"] = e.q;
  d["neighbours"] = py::array_t<std::uint32_t>(static_cast<py::ssize_t>(e.neighbours.size()), e.neighbours.data());
  d["noisy_degree"] = e.noisy_degree;
  d["resolution"] = e.resolution;
  d["values"] = py::array_t<std::int64_t>(static_cast<py::ssize_t>(e.values.size()), e.values.data());
  return d;
}

class EdgeRandomizer {
 public:
  EdgeRandomizer(std::uint32_t num_users, const std::string& mechanism, double epsilon, const std::string& allocation,
                 std::uint32_t n_max, std::uint32_t resolution) {
    ldpgraph::EdgePolicy policy;
    policy.mechanism = Take(ldpgraph::ParseEdgeMechanism(mechanism));
    if (policy.mechanism != ldpgraph::EdgeMechanism::kNone) policy.epsilon = Epsilon("epsilon", epsilon, false);
    policy.allocation = Take(ldpgraph::ParseBudgetAllocation(allocation));
    policy.n_max = n_max;
    policy.locallap_resolution = resolution;
    if (num_users < 2) throw py::value_error("num_users must be at least 2, got " + std::to_string(num_users));
    impl_ = Take(ldpgraph::MakeEdgeRandomizer(num_users, policy));
  }

  py::dict Perturb(std::uint32_t user, const py::object& neighbours, Rng& rng) const {
    const std::vector<std::uint32_t> ids = Ids(neighbours, "neighbours");
    ldpgraph::NoisyEdges out;
    Check(impl_->Perturb(user, ldpgraph::Span<const std::uint32_t>(ids.data(), ids.size()), *rng.source, &out));
    return NoisyEdgesDict(out);
  }
  std::uint32_t num_users() const { return impl_->num_users(); }

 private:
  std::unique_ptr<ldpgraph::EdgeRandomizer> impl_;
};

ldpgraph::MultiBitParams FeatureParams(std::uint32_t dims, double epsilon, double lo, double hi,
                                       std::uint32_t sampled_dims) {
  ldpgraph::MultiBitParams p;
  p.dims = dims;
  p.epsilon = Epsilon("epsilon", epsilon, false);
  p.ranges = {ldpgraph::FeatureRange{lo, hi}};
  p.sampled_dims = sampled_dims;
  Check(p.Validate());
  return p;
}

std::vector<double> Values(const py::object& x, const char* name) {
  const Float64Array a = Float64Array::ensure(x);
  if (!a || a.ndim() != 1) throw py::value_error(std::string(name) + " must be a 1-d array of numbers");
  return std::vector<double>(a.data(), a.data() + a.shape(0));
}

py::tuple Encode(const ldpgraph::MultiBitEncoder& e, const py::object& x, Rng& rng) {
  const std::vector<double> v = Values(x, "x");
  std::vector<ldpgraph::EncodedFeature> out;
  Check(e.Encode(ldpgraph::Span<const double>(v.data(), v.size()), *rng.source, &out));
  py::array_t<std::uint32_t> index(static_cast<py::ssize_t>(out.size()));
  py::array_t<std::int8_t> sign(static_cast<py::ssize_t>(out.size()));
  for (std::size_t k = 0; k < out.size(); ++k) {
    index.mutable_data()[k] = out[k].index;
    sign.mutable_data()[k] = out[k].sign;
  }
  return py::make_tuple(index, sign);
}

py::array_t<double> Rectify(const ldpgraph::MultiBitRectifier& r, const py::object& index, const py::object& sign) {
  const std::vector<std::uint32_t> i = Ids(index, "index");
  const Int64Array s = Int64Array::ensure(sign);
  if (!s || s.ndim() != 1 || static_cast<std::size_t>(s.shape(0)) != i.size()) {
    throw py::value_error("sign must be a 1-d array as long as index");
  }
  std::vector<ldpgraph::EncodedFeature> pairs(i.size());
  for (std::size_t k = 0; k < i.size(); ++k) {
    if (s.data()[k] != 1 && s.data()[k] != -1) {
      throw py::value_error("sign[" + std::to_string(k) + "] must be +1 or -1");
    }
    pairs[k] = {i[k], static_cast<std::int8_t>(s.data()[k])};
  }
  std::vector<double> out;
  Check(r.Rectify(ldpgraph::Span<const ldpgraph::EncodedFeature>(pairs.data(), pairs.size()), &out));
  return py::array_t<double>(static_cast<py::ssize_t>(out.size()), out.data());
}

py::array_t<float> PerturbFeatureMatrix(const py::array& x, const std::string& mechanism, double epsilon,
                                        std::uint64_t seed) {
  const Float32Array a = Float32Array::ensure(x);
  if (!a || a.ndim() != 2) throw py::value_error("features must be a 2-d array (nodes x dims)");
  const ldpgraph::FeatureMechanism m = Take(ldpgraph::ParseFeatureMechanism(mechanism));
  Epsilon("epsilon", epsilon, false);
  ldpgraph::Matrix features = Eigen::Map<const ldpgraph::Matrix>(a.data(), a.shape(0), a.shape(1));
  if (!features.allFinite()) throw py::value_error("features must be finite");
  if (features.minCoeff() < 0 || features.maxCoeff() > 1) {
    throw py::value_error("features must lie in [0, 1] (scale every column first, e.g. min-max)");
  }
  ldpgraph::Result<ldpgraph::Matrix> out = [&]() -> ldpgraph::Result<ldpgraph::Matrix> {
    py::gil_scoped_release unlocked;
    ldpgraph::Result<ldpgraph::NodeFeatures> noisy =
        ldpgraph::PerturbFeatures(ldpgraph::NodeFeatures::DenseView(features.data(), features.rows(), features.cols()),
                                  m, epsilon, seed);
    if (!noisy.ok()) return noisy.status();
    return noisy->ToDense();  // the estimates as numpy holds them: every value
  }();
  return ToNumpy(Take(std::move(out)));
}

py::array_t<std::int64_t> PerturbLabels(const py::object& labels, std::uint32_t classes, double epsilon,
                                        const py::object& seed) {
  const ldpgraph::LabelRandomizer rr = Take(ldpgraph::LabelRandomizer::Create(classes, epsilon));
  const Int64Array a = Int64Array::ensure(labels);
  if (!a || a.ndim() != 1) throw py::value_error("labels must be a 1-d integer array");
  Rng rng = MakeRng(seed);
  py::array_t<std::int64_t> out(a.shape(0));
  for (py::ssize_t k = 0; k < a.shape(0); ++k) {
    const std::int64_t y = a.data()[k];
    if (y < 0 || y >= classes) {
      throw py::value_error("labels[" + std::to_string(k) + "] = " + std::to_string(y) + " is not a class in [0, " +
                            std::to_string(classes) + ")");
    }
    out.mutable_data()[k] = Take(rr.Perturb(static_cast<std::uint32_t>(y), *rng.source));
  }
  return out;
}

}  // namespace

void BindMechanisms(py::module_& m) {
  py::class_<Rng>(m, "Rng")
      .def(py::init(&MakeRng), py::arg("seed") = py::none())
      .def_readonly("seeded", &Rng::seeded);
  py::class_<EdgeRandomizer>(m, "EdgeRandomizer")
      .def(py::init<std::uint32_t, const std::string&, double, const std::string&, std::uint32_t, std::uint32_t>(),
           py::arg("num_users"), py::arg("mechanism") = "dprr", py::arg("epsilon") = 1.0,
           py::arg("allocation") = "paper", py::arg("n_max") = 0, py::arg("resolution") = 16)
      .def_property_readonly("num_users", &EdgeRandomizer::num_users)
      .def("perturb", &EdgeRandomizer::Perturb, py::arg("user"), py::arg("neighbours"), py::arg("rng"));
  py::class_<ldpgraph::MultiBitEncoder>(m, "MultiBitEncoder")
      .def(py::init([](std::uint32_t dims, double epsilon, double lo, double hi, std::uint32_t sampled_dims) {
             return Take(ldpgraph::MultiBitEncoder::Create(FeatureParams(dims, epsilon, lo, hi, sampled_dims)));
           }),
           py::arg("dims"), py::arg("epsilon"), py::arg("lo") = 0.0, py::arg("hi") = 1.0, py::arg("sampled_dims") = 0)
      .def_property_readonly("sampled_dims", &ldpgraph::MultiBitEncoder::sampled_dims)
      .def("sign_probability", &ldpgraph::MultiBitEncoder::SignProbability, py::arg("dim"), py::arg("x"))
      .def("encode", &Encode, py::arg("x"), py::arg("rng"));
  py::class_<ldpgraph::MultiBitRectifier>(m, "MultiBitRectifier")
      .def(py::init([](std::uint32_t dims, double epsilon, double lo, double hi, std::uint32_t sampled_dims) {
             return Take(ldpgraph::MultiBitRectifier::Create(FeatureParams(dims, epsilon, lo, hi, sampled_dims)));
           }),
           py::arg("dims"), py::arg("epsilon"), py::arg("lo") = 0.0, py::arg("hi") = 1.0, py::arg("sampled_dims") = 0)
      .def("rectify", &Rectify, py::arg("index"), py::arg("sign"));
  py::class_<ldpgraph::LabelRandomizer>(m, "LabelRandomizer")
      .def(py::init([](std::uint32_t classes, double epsilon) {
             return Take(ldpgraph::LabelRandomizer::Create(classes, epsilon));
           }),
           py::arg("classes"), py::arg("epsilon"))
      .def_property_readonly("classes", &ldpgraph::LabelRandomizer::classes)
      .def_property_readonly("keep_probability", &ldpgraph::LabelRandomizer::keep_probability)
      .def("transition_probability", &ldpgraph::LabelRandomizer::TransitionProbability, py::arg("source"),
           py::arg("target"))
      .def("perturb", [](const ldpgraph::LabelRandomizer& r, std::int64_t label, Rng& rng) {
             if (label < 0 || label >= r.classes()) {
               throw py::value_error("label must be a class in [0, " + std::to_string(r.classes()) + "), got " +
                                     std::to_string(label));
             }
             return Take(r.Perturb(static_cast<std::uint32_t>(label), *rng.source));
           }, py::arg("label"), py::arg("rng"));
  m.def("perturb_features", &PerturbFeatureMatrix, py::arg("features"), py::arg("mechanism"), py::arg("epsilon"),
        py::arg("seed"));
  m.def("perturb_labels", &PerturbLabels, py::arg("labels"), py::arg("classes"), py::arg("epsilon"), py::arg("seed"));
}

}  // namespace ldpgraph_python
