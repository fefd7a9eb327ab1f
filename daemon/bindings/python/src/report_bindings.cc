// ldpgraph.device's reports: a graph's public configuration (the daemon's
// JSON), the ReportBuilder that runs its mechanisms on one user's true data,
// the report's wire encoding and decoding, and the budget ledger that makes
// a device send one report per graph, ever.
#include <cmath>
#include <string>
#include <vector>

#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include "requests/graph_config_json.h"
#include "bindings.h"
#include "conversions.h"
#include "ldpgraph/budget_ledger.h"
#include "ldpgraph/report_builder.h"
#include "ldpgraph/wire_format.h"
#include "rng.h"

namespace ldpgraph_python {
namespace {

py::bytes Encode(const ldpgraph::Report& report) {
  std::vector<std::uint8_t> out;
  Check(ldpgraph::EncodeReport(report, &out));
  return py::bytes(reinterpret_cast<const char*>(out.data()), out.size());
}

ldpgraph::Report Decode(const py::bytes& data) {
  const std::string bytes = data;
  return Take(ldpgraph::DecodeReport(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
}

py::dict EdgesOf(const ldpgraph::NoisyEdges& e) {
  py::dict d;
  d["mechanism"] = ldpgraph::EdgeMechanismName(e.mechanism);
  d["epsilon"] = e.epsilon;
  d["neighbours"] = py::array_t<std::uint32_t>(static_cast<py::ssize_t>(e.neighbours.size()), e.neighbours.data());
  d["noisy_degree"] = e.noisy_degree;
  d["values"] = py::array_t<std::int64_t>(static_cast<py::ssize_t>(e.values.size()), e.values.data());
  d["p"] = e.p;
  d["q"] = e.q;
  return d;
}

py::object FeaturesOf(const ldpgraph::Report& r) {
  if (!r.has_features) return py::none();
  py::array_t<std::uint32_t> index(static_cast<py::ssize_t>(r.features.encoded.size()));
  py::array_t<std::int8_t> sign(static_cast<py::ssize_t>(r.features.encoded.size()));
  for (std::size_t k = 0; k < r.features.encoded.size(); ++k) {
    index.mutable_data()[k] = r.features.encoded[k].index;
    sign.mutable_data()[k] = r.features.encoded[k].sign;
  }
  py::dict d;
  d["epsilon"] = r.features.epsilon;
  d["dims"] = r.features.dims;
  d["index"] = index;
  d["sign"] = sign;
  return d;
}

// One user's true data from Python objects, checked as the C++ API wants it.
struct UserInput {
  std::vector<std::uint32_t> list;
  std::vector<double> x;
  ldpgraph::UserData data;

  UserInput(std::uint32_t user, const py::object& neighbours, const py::object& features, const py::object& label) {
    const Int64Array ids = Int64Array::ensure(neighbours);
    if (!ids || ids.ndim() != 1) throw py::value_error("neighbours must be a 1-d array of user ids");
    for (py::ssize_t k = 0; k < ids.shape(0); ++k) {
      if (ids.data()[k] < 0 || ids.data()[k] > 0xFFFFFFFFll) {
        throw py::value_error("neighbours[" + std::to_string(k) + "] is not a user id");
      }
      list.push_back(static_cast<std::uint32_t>(ids.data()[k]));
    }
    if (!features.is_none()) {
      const Float64Array a = Float64Array::ensure(features);
      if (!a || a.ndim() != 1) throw py::value_error("features must be a 1-d array of numbers");
      x.assign(a.data(), a.data() + a.shape(0));
    }
    data.user_id = user;
    data.neighbours = ldpgraph::Span<const std::uint32_t>(list.data(), list.size());
    data.features = ldpgraph::Span<const double>(x.data(), x.size());
    if (!label.is_none()) {
      const auto y = label.cast<std::int64_t>();
      if (y < 0 || y > 0xFFFFFFFFll) {
        throw py::value_error("label must be a non-negative class, got " + std::to_string(y));
      }
      data.has_label = true;
      data.label = static_cast<std::uint32_t>(y);
    }
  }
  UserInput(const UserInput&) = delete;  // data points into list and x
};

class Builder {
 public:
  explicit Builder(const std::string& config_json) {
    impl_ = Take(ldpgraph::ReportBuilder::Create(Take(ldpgraph::GraphConfigFromJson(config_json))));
  }

  ldpgraph::Report Build(std::uint32_t user, const py::object& neighbours, const py::object& features,
                         const py::object& label, Rng& rng) const {
    const UserInput input(user, neighbours, features, label);
    return Take(impl_->Build(input.data, *rng.source));
  }

  // An embedding graph's one report from its owner's rows x dims embeddings.
  ldpgraph::Report BuildEmbedding(const py::object& embeddings, const py::object& label, Rng& rng) const {
    const Float64Array h = Float64Array::ensure(embeddings);
    if (!h || h.ndim() != 2) throw py::value_error("embeddings must be a 2-d array (nodes x dims) of numbers");
    bool has_label = false;
    std::uint32_t y = 0;
    if (!label.is_none()) {
      const auto value = label.cast<std::int64_t>();
      if (value < 0 || value > 0xFFFFFFFFll) {
        throw py::value_error("label must be a non-negative class, got " + std::to_string(value));
      }
      has_label = true;
      y = static_cast<std::uint32_t>(value);
    }
    const ldpgraph::EmbeddingPolicy& policy = impl_->config().embedding;
    if (policy.enabled && static_cast<std::uint64_t>(h.shape(1)) != policy.dims) {
      throw py::value_error("graph " + std::to_string(impl_->config().graph_id) + " has embeddings of " +
                            std::to_string(policy.dims) + " columns, got " + std::to_string(h.shape(1)));
    }
    const ldpgraph::Span<const double> values(h.data(), static_cast<std::size_t>(h.size()));
    return Take(impl_->BuildEmbedding(values, has_label, y, *rng.source));
  }

  const ldpgraph::ReportBuilder& impl() const { return *impl_; }
  std::string ConfigJson() const { return ldpgraph::GraphConfigToJson(impl_->config()); }

 private:
  std::unique_ptr<ldpgraph::ReportBuilder> impl_;
};

class Ledger {
 public:
  Ledger(const std::string& path, double cap) {
    impl_ = Take(ldpgraph::BudgetLedger::Open(ldpgraph::FileLedgerStorage(path), cap));
  }

  // make() returns (report bytes, epsilon); it is called only when the graph has no report yet.
  py::bytes ReportOnce(std::uint64_t graph_id, const py::function& make) {
    std::optional<py::error_already_set> error;
    ldpgraph::Result<std::vector<std::uint8_t>> bytes =
        impl_->ReportOnce(graph_id, [&]() -> ldpgraph::Result<ldpgraph::BudgetLedger::NewReport> {
          try {
            auto made = make().cast<py::tuple>();
            if (made.size() != 2) return ldpgraph::Status::InvalidArgument("make() must return (bytes, epsilon)");
            ldpgraph::BudgetLedger::NewReport r;
            const std::string b = made[0].cast<py::bytes>();
            r.bytes.assign(b.begin(), b.end());
            r.epsilon = made[1].cast<double>();
            if (!(r.epsilon > 0)) return ldpgraph::Status::InvalidArgument("make(): epsilon must be positive");
            return r;
          } catch (py::error_already_set& e) {
            error.emplace(std::move(e));
            return ldpgraph::Status::InvalidArgument("make() raised");
          } catch (py::cast_error&) {
            return ldpgraph::Status::InvalidArgument("make() must return (bytes, epsilon)");
          }
        });
    if (error) throw *error;
    const std::vector<std::uint8_t> out = Take(std::move(bytes));
    return py::bytes(reinterpret_cast<const char*>(out.data()), out.size());
  }

  py::bytes ReportRound(const Builder& builder, std::uint64_t round, std::uint32_t user, const py::object& neighbours,
                        const py::object& features, const py::object& label, Rng& rng) {
    const UserInput input(user, neighbours, features, label);
    const std::vector<std::uint8_t> out = Take(impl_->ReportRound(builder.impl(), input.data, round, *rng.source));
    return py::bytes(reinterpret_cast<const char*>(out.data()), out.size());
  }

  py::dict Loss(std::uint64_t graph_id) const {
    const ldpgraph::GraphLoss loss = Take(impl_->Loss(graph_id));
    py::dict d;
    d["epsilon"] = loss.epsilon;
    d["naive_epsilon"] = loss.naive_epsilon;
    d["rounds"] = loss.rounds;
    d["last_round"] = loss.last_round;
    d["edges_epsilon"] = loss.parts.edges;
    d["features_epsilon"] = loss.parts.features;
    d["label_epsilon"] = loss.parts.label;
    return d;
  }

  py::object Find(std::uint64_t graph_id) const {
    ldpgraph::Result<std::vector<std::uint8_t>> r = impl_->Find(graph_id);
    if (!r.ok()) return py::none();
    return py::bytes(reinterpret_cast<const char*>(r->data()), r->size());
  }
  double spent() const { return impl_->spent(); }
  double cap() const { return impl_->cap(); }
  std::size_t size() const { return impl_->size(); }

 private:
  std::unique_ptr<ldpgraph::BudgetLedger> impl_;
};

}  // namespace

void BindReports(py::module_& m) {
  py::class_<ldpgraph::Report>(m, "Report")
      .def_readonly("graph_id", &ldpgraph::Report::graph_id)
      .def_readonly("num_users", &ldpgraph::Report::num_users)
      .def_readonly("user_id", &ldpgraph::Report::user_id)
      .def_property_readonly("report_id",
                             [](const ldpgraph::Report& r) { return ldpgraph::ReportIdToHex(r.report_id); })
      .def_property_readonly("edges", [](const ldpgraph::Report& r) { return EdgesOf(r.edges); })
      .def_property_readonly("features", &FeaturesOf)
      .def_property_readonly("label", [](const ldpgraph::Report& r) -> py::object {
        if (!r.has_label) return py::none();
        return py::int_(r.label.value);
      })
      .def_property_readonly("summary_cell", [](const ldpgraph::Report& r) -> py::object {
        if (!r.has_summary) return py::none();
        return py::int_(r.summary.cell);
      })
      .def_property_readonly("epsilon", &ldpgraph::ReportEpsilon)
      .def("encode", &Encode);
  m.def("decode_report", &Decode, py::arg("data"));
  py::class_<Builder>(m, "ReportBuilder")
      .def(py::init<const std::string&>(), py::arg("config_json"))
      .def_property_readonly("config_json", &Builder::ConfigJson)
      .def("build", &Builder::Build, py::arg("user"), py::arg("neighbours"), py::arg("features"), py::arg("label"),
           py::arg("rng"))
      .def("build_embedding", &Builder::BuildEmbedding, py::arg("embeddings"), py::arg("label"), py::arg("rng"));
  py::class_<Ledger>(m, "BudgetLedger")
      .def(py::init<const std::string&, double>(), py::arg("path"), py::arg("epsilon_cap"))
      .def("report_once", &Ledger::ReportOnce, py::arg("graph_id"), py::arg("make"))
      .def("report_round", &Ledger::ReportRound, py::arg("builder"), py::arg("round"), py::arg("user"),
           py::arg("neighbours"), py::arg("features"), py::arg("label"), py::arg("rng"))
      .def("loss", &Ledger::Loss, py::arg("graph_id"))
      .def("find", &Ledger::Find, py::arg("graph_id"))
      .def_property_readonly("spent", &Ledger::spent)
      .def_property_readonly("cap", &Ledger::cap)
      .def("__len__", &Ledger::size);
}

}  // namespace ldpgraph_python
