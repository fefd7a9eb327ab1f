#include "ldpgraph/wire_format.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>

#include "ldpgraph/graph_config_codec.h"
#include "ldpgraph/report_builder.h"

using namespace ldpgraph;

namespace {

std::string Hex(const std::vector<std::uint8_t>& bytes) {
  static const char kHex[] = "0123456789abcdef";
  std::string s;
  for (auto b : bytes) {
    s.push_back(kHex[b >> 4]);
    s.push_back(kHex[b & 15]);
  }
  return s;
}

std::vector<std::uint8_t> Unhex(const std::string& hex) {
  std::vector<std::uint8_t> out;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<std::uint8_t>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  }
  return out;
}

ReportId CountingId() {
  ReportId id;
  for (int i = 0; i < 16; ++i) id[i] = static_cast<std::uint8_t>(i);
  return id;
}

// The three reports of docs/wire-format.md, field by field.
Report GoldenDprr() {
  Report r;
  r.graph_id = 7;
  r.num_users = 10;
  r.user_id = 3;
  r.report_id = CountingId();
  r.edges.mechanism = EdgeMechanism::kDprr;
  r.edges.allocation = BudgetAllocation::kFixed;
  r.edges.epsilon = 1.0;
  r.edges.eps1 = 0.125;
  r.edges.eps2 = 0.875;
  r.edges.p = 0.75;
  r.edges.q = 0.5;
  r.edges.neighbours = {0, 4, 9};
  return r;
}

// The DPRR report again, sent in round 300 of a graph collected in rounds.
Report GoldenDprrRound300() {
  Report r = GoldenDprr();
  r.round = 300;
  return r;
}

Report GoldenNonPrivateWithFeaturesAndLabel() {
  Report r;
  r.graph_id = 300;
  r.num_users = 200;
  r.user_id = 150;
  r.report_id = CountingId();
  r.edges.mechanism = EdgeMechanism::kNone;
  r.edges.epsilon = std::numeric_limits<double>::infinity();
  r.edges.neighbours = {1, 128, 199};
  r.has_features = true;
  r.features.epsilon = 4.5;  // m = floor(4.5 / 2.18) = 2
  r.features.dims = 16;
  r.features.encoded = {{2, 1}, {9, -1}};
  r.has_label = true;
  r.label.epsilon = 1.0;
  r.label.classes = 3;
  r.label.value = 2;
  return r;
}

Report GoldenLocalLap() {
  Report r;
  r.graph_id = 1;
  r.num_users = 4;
  r.user_id = 1;
  r.report_id = CountingId();
  r.edges.mechanism = EdgeMechanism::kLocalLap;
  r.edges.allocation = BudgetAllocation::kFixed;
  r.edges.epsilon = 2.0;
  r.edges.eps1 = 0.25;
  r.edges.eps2 = 1.75;
  r.edges.resolution = 16;
  r.edges.noisy_degree = -1;
  r.edges.values = {17, -3, 0};
  r.edges.p = 1;
  r.edges.q = 1;
  return r;
}

Report GoldenRrDegree() {
  Report r;
  r.graph_id = 1;
  r.num_users = 4;
  r.user_id = 2;
  r.report_id = CountingId();
  r.edges.mechanism = EdgeMechanism::kRrDegree;
  r.edges.allocation = BudgetAllocation::kFixed;
  r.edges.epsilon = 2.0;
  r.edges.eps1 = 0.25;
  r.edges.eps2 = 1.75;
  r.edges.p = 0.875;
  r.edges.q = 1;
  r.edges.noisy_degree = -1;
  r.edges.neighbours = {0, 3};
  return r;
}

// GW-LDP: a 3-node graph's owner sends its 3 x 2 embeddings at epsilon 2
// (m = 1 entry per node) and its class through RR.
Report GoldenEmbedding() {
  Report r;
  r.graph_id = 5;
  r.num_users = 3;
  r.report_id = CountingId();
  r.edges.epsilon = std::numeric_limits<double>::infinity();
  r.has_embedding = true;
  r.embedding.epsilon = 2.0;
  r.embedding.dims = 2;
  r.embedding.rows = {{{1, 1}}, {{0, -1}}, {{1, -1}}};
  r.has_label = true;
  r.label.epsilon = 1.0;
  r.label.classes = 2;
  r.label.value = 1;
  return r;
}

std::vector<std::uint8_t> Encode(const Report& r) {
  std::vector<std::uint8_t> out;
  Status s = EncodeReport(r, &out);
  REQUIRE_MESSAGE(s.ok(), s.ToString());
  return out;
}

void CheckSameReport(const Report& a, const Report& b) {
  CHECK(a.graph_id == b.graph_id);
  CHECK(a.num_users == b.num_users);
  CHECK(a.user_id == b.user_id);
  CHECK(a.round == b.round);
  CHECK(a.report_id == b.report_id);
  CHECK(a.edges.mechanism == b.edges.mechanism);
  CHECK(a.edges.allocation == b.edges.allocation);
  CHECK(a.edges.epsilon == b.edges.epsilon);
  CHECK(a.edges.eps1 == b.edges.eps1);
  CHECK(a.edges.eps2 == b.edges.eps2);
  CHECK(a.edges.p == b.edges.p);
  CHECK(a.edges.q == b.edges.q);
  CHECK(a.edges.neighbours == b.edges.neighbours);
  CHECK(a.edges.noisy_degree == b.edges.noisy_degree);
  CHECK(a.edges.resolution == b.edges.resolution);
  CHECK(a.edges.values == b.edges.values);
  CHECK(a.has_features == b.has_features);
  CHECK(a.features.encoded == b.features.encoded);
  CHECK(a.has_label == b.has_label);
  CHECK(a.label.value == b.label.value);
  CHECK(a.has_embedding == b.has_embedding);
  CHECK(a.embedding.epsilon == b.embedding.epsilon);
  CHECK(a.embedding.dims == b.embedding.dims);
  CHECK(a.embedding.rows == b.embedding.rows);
}

// The golden vectors, also printed in docs/wire-format.md.
const char* kGoldenDprrHex = "4c470100000102030405060708090a0b0c0d0e0f070a0301000000000000f03f01000000000000c03f000000000000ec3f000000000000e83f000000000000e03f03000304";
const char* kGoldenDprrRound300Hex = "4c470200000102030405060708090a0b0c0d0e0f070aac020301000000000000f03f01000000000000c03f000000000000ec3f000000000000e83f000000000000e03f03000304";
const char* kGoldenNonPrivateHex = "4c470103000102030405060708090a0b0c0d0e0fac02c801960100000000000000f07f03017e4600000000000012401002040d000000000000f03f0302";
const char* kGoldenLocalLapHex = "4c470100000102030405060708090a0b0c0d0e0f01040103000000000000004001000000000000d03f000000000000fc3f100103220500";
const char* kGoldenEmbeddingHex = "4c470106000102030405060708090a0b0c0d0e0f05030000000000000040020102010300000000"
                                  "0000f03f0201";
const char* kGoldenRrDegreeHex = "4c470100000102030405060708090a0b0c0d0e0f01040204000000000000004001000000000000d03f000000000000fc3f000000000000ec3f01020002";

}  // namespace

TEST_CASE("WireFormat.GoldenVectors") {
  CHECK(Hex(Encode(GoldenDprr())) == kGoldenDprrHex);
  CHECK(Hex(Encode(GoldenDprrRound300())) == kGoldenDprrRound300Hex);
  CHECK(Hex(Encode(GoldenNonPrivateWithFeaturesAndLabel())) == kGoldenNonPrivateHex);
  CHECK(Hex(Encode(GoldenLocalLap())) == kGoldenLocalLapHex);
  CHECK(Hex(Encode(GoldenRrDegree())) == kGoldenRrDegreeHex);
  CHECK(Hex(Encode(GoldenEmbedding())) == kGoldenEmbeddingHex);
}

TEST_CASE("WireFormat.GoldenVectorsDecode") {
  for (auto [hex, expected] : {std::make_pair(kGoldenDprrHex, GoldenDprr()),
                               std::make_pair(kGoldenDprrRound300Hex, GoldenDprrRound300()),
                               std::make_pair(kGoldenNonPrivateHex, GoldenNonPrivateWithFeaturesAndLabel()),
                               std::make_pair(kGoldenLocalLapHex, GoldenLocalLap()),
                               std::make_pair(kGoldenRrDegreeHex, GoldenRrDegree()),
                               std::make_pair(kGoldenEmbeddingHex, GoldenEmbedding())}) {
    auto bytes = Unhex(hex);
    auto decoded = DecodeReport(bytes.data(), bytes.size());
    REQUIRE_MESSAGE(decoded.ok(), decoded.status().ToString());
    CheckSameReport(*decoded, expected);
  }
}

TEST_CASE("WireFormat.RoundTripsEveryMechanismFromTheBuilder") {
  SeededRandomSource rng(9);
  for (auto m : {EdgeMechanism::kNone, EdgeMechanism::kDprr, EdgeMechanism::kRr, EdgeMechanism::kLocalLap,
                 EdgeMechanism::kRrDegree}) {
    GraphConfig c;
    c.graph_id = 0xFFFFFFFFFFFFull;
    c.num_users = 300;
    c.edges.mechanism = m;
    c.edges.epsilon = 2.0;
    c.features.enabled = true;
    c.features.params.dims = 40;
    c.features.params.epsilon = 9.0;
    c.label.enabled = true;
    c.label.classes = 7;
    auto builder = ReportBuilder::Create(c);
    REQUIRE(builder.ok());
    std::vector<double> x(40, 0.3);
    UserData u;
    u.user_id = 299;
    std::vector<std::uint32_t> nb = {0, 1, 2, 150, 298};
    u.neighbours = nb;
    u.features = x;
    u.has_label = true;
    u.label = 4;
    auto report = (*builder)->Build(u, rng);
    REQUIRE(report.ok());
    auto bytes = Encode(*report);
    auto decoded = DecodeReport(bytes.data(), bytes.size());
    REQUIRE_MESSAGE(decoded.ok(), decoded.status().ToString());
    CheckSameReport(*decoded, *report);
    CHECK(Hex(Encode(*decoded)) == Hex(bytes));  // canonical: one encoding per report
  }
}

TEST_CASE("WireFormat.EveryTruncationIsRejected") {
  for (const Report& r : {GoldenDprr(), GoldenDprrRound300(), GoldenNonPrivateWithFeaturesAndLabel(), GoldenLocalLap(),
                          GoldenEmbedding()}) {
    auto bytes = Encode(r);
    for (std::size_t len = 0; len < bytes.size(); ++len) {
      auto d = DecodeReport(bytes.data(), len);
      CHECK_FALSE(d.ok());
      CHECK(d.status().code() == StatusCode::kInvalidArgument);
    }
  }
}

TEST_CASE("WireFormat.RejectsTrailingBytes") {
  auto bytes = Encode(GoldenDprr());
  bytes.push_back(0);
  auto d = DecodeReport(bytes.data(), bytes.size());
  CHECK(d.status().message().find("trailing") != std::string::npos);
}

TEST_CASE("WireFormat.RejectsBadMagicVersionAndFlags") {
  auto good = Encode(GoldenDprr());
  auto bad = good;
  bad[0] = 'X';
  CHECK_FALSE(DecodeReport(bad.data(), bad.size()).ok());
  bad = good;
  bad[2] = 3;
  CHECK(DecodeReport(bad.data(), bad.size()).status().message().find("version") != std::string::npos);
  bad = good;
  bad[3] = 0x80;
  CHECK(DecodeReport(bad.data(), bad.size()).status().message().find("flag") != std::string::npos);
}

TEST_CASE("WireFormat.ARoundHasOneEncoding") {
  // Version 2 with round 0 would be a second encoding of a version-1 report.
  auto v2 = Encode(GoldenDprrRound300());
  std::vector<std::uint8_t> bad(v2.begin(), v2.begin() + 22);  // up to n
  bad.push_back(0x00);                                           // round 0
  bad.insert(bad.end(), v2.begin() + 24, v2.end());
  CHECK(DecodeReport(bad.data(), bad.size()).status().message().find("round must be at least 1") !=
        std::string::npos);
  // A version-1 report read as version 2 takes its user id for a round and fails further on.
  auto v1 = Encode(GoldenDprr());
  v1[2] = 2;
  CHECK_FALSE(DecodeReport(v1.data(), v1.size()).ok());
  // An embedding graph's owner reports once.
  Report embedding = GoldenEmbedding();
  embedding.round = 1;
  std::vector<std::uint8_t> out;
  CHECK(EncodeReport(embedding, &out).message().find("round must be 0") != std::string::npos);
}

TEST_CASE("WireFormat.RejectsNonMinimalVarint") {
  auto good = Encode(GoldenDprr());
  // graph id 7 is the byte at offset 20; re-encode it as 0x87 0x00.
  std::vector<std::uint8_t> bad(good.begin(), good.begin() + 20);
  bad.push_back(0x87);
  bad.push_back(0x00);
  bad.insert(bad.end(), good.begin() + 21, good.end());
  CHECK_FALSE(DecodeReport(bad.data(), bad.size()).ok());
}

TEST_CASE("WireFormat.RejectsSemanticErrors") {
  auto expect_bad = [](Report r, const char* fragment) {
    std::vector<std::uint8_t> out;
    Status s = EncodeReport(r, &out);
    CHECK_MESSAGE(s.message().find(fragment) != std::string::npos, s.ToString());
    CHECK(out.empty());
  };
  Report r = GoldenDprr();
  r.user_id = 10;
  expect_bad(r, "user id");
  r = GoldenDprr();
  r.edges.neighbours = {0, 4, 10};
  expect_bad(r, "neighbour id");
  r = GoldenDprr();
  r.edges.neighbours = {3};
  expect_bad(r, "own neighbour");
  r = GoldenDprr();
  r.edges.epsilon = std::nan("");
  expect_bad(r, "epsilon");
  r = GoldenDprr();
  r.edges.eps2 = 0.5;
  expect_bad(r, "eps1 + eps2");
  r = GoldenDprr();
  r.edges.q = 1.5;
  expect_bad(r, "q must");
  r = GoldenNonPrivateWithFeaturesAndLabel();
  r.edges.epsilon = 3.0;
  expect_bad(r, "infinity");
  r = GoldenNonPrivateWithFeaturesAndLabel();
  r.label.value = 3;
  expect_bad(r, "label");
  r = GoldenNonPrivateWithFeaturesAndLabel();
  r.features.encoded = {{2, 1}};
  expect_bad(r, "m = 2");
  r = GoldenLocalLap();
  r.edges.values = {1, 2};
  expect_bad(r, "n - 1");
  r = GoldenEmbedding();
  r.embedding.rows[1] = {{0, 1}, {1, 1}};
  expect_bad(r, "node 1: expected m = 1");
  r = GoldenEmbedding();
  r.embedding.rows.pop_back();
  expect_bad(r, "embedding rows");
  r = GoldenEmbedding();
  r.embedding.rows[2] = {{2, 1}};
  expect_bad(r, "not below dims");
  r = GoldenEmbedding();
  r.user_id = 1;
  expect_bad(r, "no user");
  r = GoldenEmbedding();
  r.has_features = true;
  r.features = GoldenNonPrivateWithFeaturesAndLabel().features;
  expect_bad(r, "no features");
  r = GoldenEmbedding();
  r.edges.neighbours = {1};
  expect_bad(r, "no edges");
  r = GoldenEmbedding();
  r.embedding.epsilon = -1;
  expect_bad(r, "epsilon");
}

TEST_CASE("WireFormat.EmbeddingReportsFromTheBuilderAndTheirBounds") {
  GraphConfig c;
  c.graph_id = 12;
  c.num_users = 40;
  c.embedding.enabled = true;
  c.embedding.dims = 3;
  c.embedding.epsilon = 400;  // m = min(3, floor(400 / 2.18)) = 3
  auto builder = ReportBuilder::Create(c);
  REQUIRE(builder.ok());
  SeededRandomSource rng(2);
  std::vector<double> h(120, 0.25);
  auto report = (*builder)->BuildEmbedding(h, false, 0, rng);
  REQUIRE_MESSAGE(report.ok(), report.status().ToString());
  CHECK(report->embedding.rows.size() == 40);
  CHECK(report->embedding.rows[0].size() == 3);
  CHECK(ReportEpsilon(*report) == 400);
  auto bytes = Encode(*report);
  auto decoded = DecodeReport(bytes.data(), bytes.size());
  REQUIRE_MESSAGE(decoded.ok(), decoded.status().ToString());
  CheckSameReport(*decoded, *report);
  CHECK(Hex(Encode(*decoded)) == Hex(bytes));
  // Refusals, before any randomness: a user's report on an embedding graph,
  // a value out of range, a label the policy does not collect.
  UserData u;
  CHECK((*builder)->Build(u, rng).status().code() == StatusCode::kFailedPrecondition);
  h[7] = 1.5;
  CHECK((*builder)->BuildEmbedding(h, false, 0, rng).status().code() == StatusCode::kOutOfRange);
  h[7] = 0.5;
  CHECK((*builder)->BuildEmbedding(h, true, 1, rng).status().code() == StatusCode::kInvalidArgument);
  GraphConfig plain = c;
  plain.embedding.enabled = false;
  auto user_builder = ReportBuilder::Create(plain);
  REQUIRE(user_builder.ok());
  CHECK((*user_builder)->BuildEmbedding(h, false, 0, rng).status().code() == StatusCode::kFailedPrecondition);
  // n x m pairs claimed beyond the bytes there are: refused before allocating.
  auto golden = Encode(GoldenEmbedding());
  std::vector<std::uint8_t> huge(golden.begin(), golden.begin() + 20);
  for (std::uint8_t b : {0x05, 0xff, 0xff, 0xff, 0x0f}) huge.push_back(b);  // graph 5, n = 2^32 - 1
  huge.insert(huge.end(), golden.begin() + 22, golden.end());
  CHECK(DecodeReport(huge.data(), huge.size()).status().message().find("exceed the bytes left") != std::string::npos);
  // Features beside an embedding: refused by the flags.
  std::vector<std::uint8_t> both = golden;
  both[3] |= 0x01;
  CHECK(DecodeReport(both.data(), both.size()).status().message().find("no features") != std::string::npos);
}

TEST_CASE("WireFormat.HugeCountsAreRejectedBeforeAllocating") {
  // A count of 2^60 neighbours in a 40-byte message must fail fast.
  auto good = Encode(GoldenDprr());
  std::vector<std::uint8_t> bad(good.begin(), good.end() - 4);  // drop count + 3 ids
  for (std::uint8_t b : {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x10}) bad.push_back(b);
  auto d = DecodeReport(bad.data(), bad.size());
  CHECK(d.status().message().find("exceeds the bytes left") != std::string::npos);
}

TEST_CASE("WireFormat.NullInputIsAnError") {
  CHECK_FALSE(DecodeReport(nullptr, 0).ok());
  CHECK_FALSE(DecodeReport(nullptr, 5).ok());
}

TEST_CASE("GraphConfigCodec.RoundTripsAndRefusesEveryTruncation") {
  ldpgraph::GraphConfig c;
  c.graph_id = 0x123456789ABCull;
  c.num_users = 5000;
  c.edges.mechanism = ldpgraph::EdgeMechanism::kLocalLap;
  c.edges.epsilon = 2.5;
  c.edges.allocation = ldpgraph::BudgetAllocation::kFixed;
  c.edges.n_max = 9000;
  c.edges.locallap_resolution = 8;
  c.features.enabled = true;
  c.features.params.dims = 3;
  c.features.params.epsilon = 4;
  c.features.params.ranges = {{0, 1}, {-2, 2}, {0, 100}};
  c.label.enabled = true;
  c.label.classes = 7;
  c.label.epsilon = 0.5;
  ldpgraph::GraphConfig e;
  e.graph_id = 77;
  e.num_users = 30;
  e.embedding.enabled = true;
  e.embedding.dims = 4;
  e.embedding.epsilon = 8;
  std::vector<std::uint8_t> embedding_bytes;
  REQUIRE(ldpgraph::EncodeGraphConfig(e, &embedding_bytes).ok());
  auto embedding_back = ldpgraph::DecodeGraphConfig(embedding_bytes.data(), embedding_bytes.size());
  REQUIRE(embedding_back.ok());
  CHECK(embedding_back->embedding.enabled);
  CHECK(embedding_back->embedding.dims == 4);
  CHECK(embedding_back->embedding.epsilon == 8);
  e.features.enabled = true;
  e.features.params.dims = 2;
  CHECK_FALSE(ldpgraph::EncodeGraphConfig(e, &embedding_bytes).ok());  // features beside embeddings
  e.features.enabled = false;
  e.num_users = 1;
  CHECK_FALSE(ldpgraph::EncodeGraphConfig(e, &embedding_bytes).ok());  // no structure to compare
  e.num_users = 30;
  e.embedding.epsilon = std::nan("");
  CHECK_FALSE(ldpgraph::EncodeGraphConfig(e, &embedding_bytes).ok());
  std::vector<std::uint8_t> bytes;
  REQUIRE(ldpgraph::EncodeGraphConfig(c, &bytes).ok());
  auto back = ldpgraph::DecodeGraphConfig(bytes.data(), bytes.size());
  REQUIRE(back.ok());
  std::vector<std::uint8_t> again;
  REQUIRE(ldpgraph::EncodeGraphConfig(*back, &again).ok());
  CHECK(again == bytes);
  CHECK(back->features.params.ranges[1].lo == -2);
  CHECK(back->label.classes == 7);
  for (std::size_t n = 0; n < bytes.size(); ++n) CHECK_FALSE(ldpgraph::DecodeGraphConfig(bytes.data(), n).ok());
  std::vector<std::uint8_t> bad = bytes;
  bad.push_back(0);
  CHECK(ldpgraph::DecodeGraphConfig(bad.data(), bad.size()).status().message().find("trailing") != std::string::npos);
  bad = bytes;
  bad[2] = 2;
  CHECK(ldpgraph::DecodeGraphConfig(bad.data(), bad.size()).status().message().find("version") != std::string::npos);
  bad = bytes;
  bad[3] |= 0x80;
  CHECK(ldpgraph::DecodeGraphConfig(bad.data(), bad.size()).status().message().find("flags") != std::string::npos);
  CHECK_FALSE(ldpgraph::DecodeGraphConfig(nullptr, 3).ok());

  ldpgraph::GraphConfig invalid = c;
  invalid.num_users = 1;
  std::vector<std::uint8_t> none;
  CHECK_FALSE(ldpgraph::EncodeGraphConfig(invalid, &none).ok());
  CHECK(none.empty());
}

TEST_CASE("WireFormat.SummaryReportsCarryOneCellAndTheirGrid") {
  GraphConfig c;
  c.graph_id = 21;
  c.num_users = 2;
  c.embedding.enabled = true;
  c.embedding.dims = 1;
  c.embedding.epsilon = 4;
  c.embedding.encoding = EmbeddingEncoding::kSummary;
  c.embedding.value_bins = 4;
  c.embedding.size_bins = 4;
  c.embedding.min_nodes = 10;
  c.embedding.max_nodes = 1000;
  auto builder = ReportBuilder::Create(c);
  REQUIRE(builder.ok());
  SeededRandomSource rng(6);
  // Graphs of 15 and 900 nodes: reports of the same length.
  const std::vector<double> small(15, 0.2), large(900, 0.8);
  auto a = (*builder)->BuildEmbedding(small, false, 0, rng);
  auto b = (*builder)->BuildEmbedding(large, false, 0, rng);
  REQUIRE_MESSAGE(a.ok(), a.status().ToString());
  REQUIRE(b.ok());
  CHECK(a->has_summary);
  CHECK_FALSE(a->has_embedding);
  CHECK(ReportEpsilon(*a) == 4);
  const auto bytes = Encode(*a);
  CHECK(bytes.size() == Encode(*b).size());
  auto decoded = DecodeReport(bytes.data(), bytes.size());
  REQUIRE_MESSAGE(decoded.ok(), decoded.status().ToString());
  CHECK(decoded->summary.cell == a->summary.cell);
  CHECK(decoded->summary.max_nodes == 1000);
  CHECK(Hex(Encode(*decoded)) == Hex(bytes));
  // Any length that is rows x dims; none else, and nothing out of range.
  CHECK((*builder)->BuildEmbedding(std::vector<double>{}, false, 0, rng).status().code() ==
        StatusCode::kInvalidArgument);
  CHECK((*builder)->BuildEmbedding(std::vector<double>(5, 1.5), false, 0, rng).status().code() ==
        StatusCode::kOutOfRange);
  // Refused on decoding: a cell past the grid, a grid no encoder takes, rows and a summary together.
  Report bad = *a;
  bad.summary.cell = 16;
  std::vector<std::uint8_t> out;
  CHECK(EncodeReport(bad, &out).message().find("summary cell is not below") != std::string::npos);
  bad = *a;
  bad.summary.min_nodes = 2000;
  CHECK(EncodeReport(bad, &out).message().find("size range") != std::string::npos);
  std::vector<std::uint8_t> both = bytes;
  both[3] |= wire::kFlagEmbedding;
  CHECK(DecodeReport(both.data(), both.size()).status().message().find("not both") != std::string::npos);
  // The configuration travels with its grid.
  std::vector<std::uint8_t> config;
  REQUIRE(EncodeGraphConfig(c, &config).ok());
  auto back = DecodeGraphConfig(config.data(), config.size());
  REQUIRE(back.ok());
  CHECK(back->embedding.encoding == EmbeddingEncoding::kSummary);
  CHECK(back->embedding.min_nodes == 10);
  CHECK(back->embedding.max_nodes == 1000);
  CHECK(back->embedding.value_bins == 4);
  for (std::size_t cut = 0; cut < config.size(); ++cut) CHECK_FALSE(DecodeGraphConfig(config.data(), cut).ok());
  c.embedding.value_bins = 0;
  CHECK_FALSE(EncodeGraphConfig(c, &config).ok());
}
