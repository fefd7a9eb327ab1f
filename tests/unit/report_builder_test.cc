#include "ldpgraph/report_builder.h"

#include <doctest/doctest.h>

#include <cmath>

using namespace ldpgraph;

namespace {
GraphConfig Config() {
  GraphConfig c;
  c.graph_id = 11;
  c.num_users = 100;
  c.edges.epsilon = 2.0;
  c.features.enabled = true;
  c.features.params.dims = 5;
  c.features.params.epsilon = 1.0;
  c.label.enabled = true;
  c.label.classes = 3;
  c.label.epsilon = 1.0;
  return c;
}
}  // namespace

TEST_CASE("ReportBuilder.BuildsAReportWithEveryPart") {
  auto b = ReportBuilder::Create(Config());
  REQUIRE(b.ok());
  SeededRandomSource rng(1);
  std::vector<std::uint32_t> nb = {1, 2, 3};
  std::vector<double> x = {0, 0.2, 0.4, 0.6, 1};
  UserData u{0, nb, x, true, 2};
  auto r = (*b)->Build(u, rng);
  REQUIRE(r.ok());
  CHECK(r->graph_id == 11u);
  CHECK(r->has_features);
  CHECK(r->features.encoded.size() == 1u);
  CHECK(r->has_label);
  CHECK(r->label.value < 3u);
  CHECK(ReportEpsilon(*r) == doctest::Approx(4.0));
  CHECK(ReportIdToHex(r->report_id).size() == 32u);
}

TEST_CASE("ReportBuilder.FreshReportIdsDiffer") {
  auto b = ReportBuilder::Create(Config());
  SeededRandomSource rng(2);
  std::vector<double> x(5, 0.5);
  UserData u{0, {}, x, true, 0};
  CHECK((*b)->Build(u, rng)->report_id != (*b)->Build(u, rng)->report_id);
}

TEST_CASE("ReportBuilder.FailsMissingLabel") {
  auto b = ReportBuilder::Create(Config());
  SeededRandomSource rng(3);
  std::vector<double> x(5, 0.5);
  UserData u{0, {}, x, false, 0};
  CHECK((*b)->Build(u, rng).status().code() == StatusCode::kInvalidArgument);
}

TEST_CASE("ReportBuilder.FailsLabelOutOfRange") {
  auto b = ReportBuilder::Create(Config());
  SeededRandomSource rng(3);
  std::vector<double> x(5, 0.5);
  UserData u{0, {}, x, true, 3};
  CHECK((*b)->Build(u, rng).status().code() == StatusCode::kOutOfRange);
}

TEST_CASE("ReportBuilder.FailsUnexpectedFeatures") {
  GraphConfig c = Config();
  c.features.enabled = false;
  auto b = ReportBuilder::Create(c);
  SeededRandomSource rng(4);
  std::vector<double> x(5, 0.5);
  UserData u{0, {}, x, true, 0};
  CHECK((*b)->Build(u, rng).status().code() == StatusCode::kInvalidArgument);
}

TEST_CASE("ReportBuilder.RejectedInputUsesNoRandomness") {
  auto b = ReportBuilder::Create(Config());
  SeededRandomSource used(5), fresh(5);
  std::vector<double> bad_x = {0, 0, 0, 0, 2.0};  // out of range
  std::vector<std::uint32_t> nb = {1};
  UserData u{0, nb, bad_x, true, 0};
  CHECK_FALSE((*b)->Build(u, used).ok());
  CHECK(used.NextU64() == fresh.NextU64());
}

TEST_CASE("ReportBuilder.FailsInvalidConfig") {
  GraphConfig c = Config();
  c.num_users = 1;
  CHECK(ReportBuilder::Create(c).status().code() == StatusCode::kInvalidArgument);
  c = Config();
  c.label.classes = 1;
  CHECK(ReportBuilder::Create(c).status().code() == StatusCode::kInvalidArgument);
  c = Config();
  c.features.params.epsilon = -1;
  CHECK(ReportBuilder::Create(c).status().code() == StatusCode::kInvalidArgument);
}
