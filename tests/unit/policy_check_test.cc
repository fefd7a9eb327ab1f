// The daemon's report checks: ids inside the graph (400) and parameters
// exactly the graph's policy (422), for every mechanism the SDK has.
#include <doctest/doctest.h>

#include <cmath>

#include "api/policy_check.h"
#include "ldpgraph/report_builder.h"

using ldpgraph::CheckReportRanges;
using ldpgraph::GraphConfig;

namespace {

GraphConfig Config(ldpgraph::EdgeMechanism mechanism, double epsilon = 1.0) {
  GraphConfig c;
  c.graph_id = 3;
  c.num_users = 40;
  c.edges.mechanism = mechanism;
  c.edges.epsilon = epsilon;
  c.features.enabled = true;
  c.features.params.dims = 6;
  c.features.params.epsilon = 5.0;
  c.label.enabled = true;
  c.label.classes = 3;
  c.label.epsilon = 2.0;
  return c;
}

ldpgraph::Report Build(const GraphConfig& c, std::uint32_t user = 5) {
  auto builder = ldpgraph::ReportBuilder::Create(c);
  REQUIRE(builder.ok());
  ldpgraph::SeededRandomSource rng(user);
  std::vector<std::uint32_t> neighbours = {1, 2, 30};
  std::vector<double> features = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6};
  ldpgraph::UserData d;
  d.user_id = user;
  d.neighbours = ldpgraph::Span<const std::uint32_t>(neighbours.data(), neighbours.size());
  d.features = ldpgraph::Span<const double>(features.data(), features.size());
  d.has_label = true;
  d.label = 1;
  auto r = (*builder)->Build(d, rng);
  REQUIRE(r.ok());
  return *r;
}

ldpgraph::Status CheckReportPolicy(const ldpgraph::Report& r, const GraphConfig& c) {
  auto expected = ldpgraph::ExpectPolicy(c);
  REQUIRE(expected.ok());
  return ldpgraph::CheckReportPolicy(r, c, *expected);
}

}  // namespace

TEST_CASE("PolicyCheck.ReportsOfTheSdkPassForEveryMechanism") {
  for (auto m : {ldpgraph::EdgeMechanism::kNone, ldpgraph::EdgeMechanism::kDprr, ldpgraph::EdgeMechanism::kRr,
                 ldpgraph::EdgeMechanism::kLocalLap, ldpgraph::EdgeMechanism::kRrDegree}) {
    const GraphConfig c = Config(m);
    const ldpgraph::Report r = Build(c);
    INFO(ldpgraph::EdgeMechanismName(m));
    CHECK(CheckReportRanges(r, c).ok());
    CHECK(CheckReportPolicy(r, c).ok());
  }
}

TEST_CASE("PolicyCheck.EachDeviationIsNamed") {
  const GraphConfig c = Config(ldpgraph::EdgeMechanism::kDprr);
  const ldpgraph::Report good = Build(c);
  struct Case {
    const char* name;
    ldpgraph::Report report;
    const char* message;
  };
  std::vector<Case> cases;
  auto add = [&](const char* name, auto change, const char* message) {
    ldpgraph::Report r = good;
    change(r);
    cases.push_back({name, r, message});
  };
  add("n", [](ldpgraph::Report& r) { r.num_users = 41; }, "made for n = 41");
  add("mechanism", [&](ldpgraph::Report& r) { r.edges = Build(Config(ldpgraph::EdgeMechanism::kRr)).edges; },
      "edge mechanism is rr");
  add("epsilon", [](ldpgraph::Report& r) { r.edges.epsilon = 1.5; }, "edge epsilon is 1.5");
  add("allocation", [](ldpgraph::Report& r) { r.edges.allocation = ldpgraph::BudgetAllocation::kFixed; },
      "budget allocation is fixed");
  add("eps1", [](ldpgraph::Report& r) { r.edges.eps1 *= 1.001; }, "eps1");
  add("p", [](ldpgraph::Report& r) { r.edges.p = 0.9; }, "p is 0.9");
  add("no features", [](ldpgraph::Report& r) { r.has_features = false; }, "needs features");
  add("feature epsilon", [](ldpgraph::Report& r) { r.features.epsilon = 4; }, "feature epsilon");
  add("feature dims", [](ldpgraph::Report& r) { r.features.dims = 7; }, "feature dims is 7");
  add("sampled dims", [](ldpgraph::Report& r) { r.features.encoded.pop_back(); }, "sampled feature dims");
  add("no label", [](ldpgraph::Report& r) { r.has_label = false; }, "needs a label");
  add("classes", [](ldpgraph::Report& r) { r.label.classes = 4; }, "label classes is 4");
  add("label epsilon", [](ldpgraph::Report& r) { r.label.epsilon = 2.5; }, "label epsilon");
  for (const Case& k : cases) {
    INFO(k.name);
    auto s = CheckReportPolicy(k.report, c);
    REQUIRE_FALSE(s.ok());
    CHECK_MESSAGE(s.message().find(k.message) != std::string::npos, s.message());
  }
  // A last-place rounding difference (another libm) passes.
  ldpgraph::Report rounded = good;
  rounded.edges.p = std::nextafter(rounded.edges.p, 2.0);
  CHECK(CheckReportPolicy(rounded, c).ok());
}

TEST_CASE("PolicyCheck.RangesAgainstTheGraphsN") {
  const GraphConfig c = Config(ldpgraph::EdgeMechanism::kNone);
  ldpgraph::Report r = Build(c);
  r.user_id = 40;
  CHECK(CheckReportRanges(r, c).code() == ldpgraph::StatusCode::kOutOfRange);
  r.user_id = 5;
  r.edges.neighbours.push_back(45);
  auto s = CheckReportRanges(r, c);
  CHECK(s.code() == ldpgraph::StatusCode::kOutOfRange);
  CHECK(s.message().find("neighbour id 45") != std::string::npos);
}
