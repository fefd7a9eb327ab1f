// The C ABI's graphs from the daemon's binary configuration: the same graph
// as from parameters (byte-identical reports for one seed), RR-with-degree
// included; bytes that do not decode are refused with the reason. An
// embedding graph's owner makes its one report through the ledger.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <cmath>

#include "ldpgraph/graph_config_codec.h"
#include "ldpgraph/ldpgraph.h"
#include "ldpgraph/wire_format.h"

namespace {

std::vector<std::uint8_t> Report(const ldpgraph_graph* graph, std::uint64_t seed) {
  ldpgraph_rng* rng = nullptr;
  REQUIRE(ldpgraph_rng_new_seeded_not_private(seed, &rng) == LDPGRAPH_OK);
  const std::uint32_t friends[] = {1, 5, 9};
  const double x[] = {0.2, 0.9, 0.5, 0.1};
  ldpgraph_user_data user{};
  user.user_id = 3;
  user.neighbours = friends;
  user.neighbour_count = 3;
  user.features = x;
  user.feature_count = 4;
  user.has_label = 1;
  user.label = 1;
  std::vector<std::uint8_t> out(ldpgraph_graph_max_report_bytes(graph));
  std::size_t len = 0;
  const ldpgraph_status s = ldpgraph_report_new(graph, rng, &user, out.data(), out.size(), &len);
  ldpgraph_rng_free(rng);
  REQUIRE_MESSAGE(s == LDPGRAPH_OK, ldpgraph_last_error());
  out.resize(len);
  return out;
}

}  // namespace

TEST_CASE("CApiConfig.AGraphFromItsConfigurationBytesIsTheGraphOfItsParameters") {
  for (std::uint32_t mechanism : {LDPGRAPH_EDGES_DPRR, LDPGRAPH_EDGES_RR, LDPGRAPH_EDGES_LOCALLAP,
                                  LDPGRAPH_EDGES_RR_DEGREE, LDPGRAPH_EDGES_NONE}) {
    INFO("mechanism " << mechanism);
    ldpgraph_graph_params p;
    ldpgraph_graph_params_init(&p);
    p.graph_id = 77;
    p.num_users = 40;
    p.edge_mechanism = mechanism;
    p.edge_epsilon = 2;
    p.feature_dims = 4;
    p.classes = 3;
    ldpgraph_graph* from_params = nullptr;
    REQUIRE_MESSAGE(ldpgraph_graph_new(&p, &from_params) == LDPGRAPH_OK, ldpgraph_last_error());

    ldpgraph::GraphConfig c;
    c.graph_id = 77;
    c.num_users = 40;
    c.edges.mechanism = static_cast<ldpgraph::EdgeMechanism>(mechanism);
    c.edges.epsilon = 2;
    c.features.enabled = true;
    c.features.params.dims = 4;
    c.features.params.epsilon = 1;
    c.features.params.ranges = {ldpgraph::FeatureRange{0, 1}};
    c.label.enabled = true;
    c.label.classes = 3;
    c.label.epsilon = 1;
    std::vector<std::uint8_t> bytes;
    REQUIRE(ldpgraph::EncodeGraphConfig(c, &bytes).ok());
    ldpgraph_graph* from_bytes = nullptr;
    REQUIRE_MESSAGE(ldpgraph_graph_from_config(bytes.data(), bytes.size(), &from_bytes) == LDPGRAPH_OK,
                    ldpgraph_last_error());
    CHECK(ldpgraph_graph_id(from_bytes) == 77);
    CHECK(ldpgraph_graph_num_users(from_bytes) == 40);
    CHECK(Report(from_bytes, 5) == Report(from_params, 5));
    ldpgraph_graph_free(from_bytes);
    ldpgraph_graph_free(from_params);
  }
}

TEST_CASE("CApiConfig.RefusesWhatDoesNotDecode") {
  ldpgraph_graph* g = nullptr;
  const std::uint8_t junk[] = {0x4C, 0x43, 9};
  CHECK(ldpgraph_graph_from_config(junk, sizeof junk, &g) == LDPGRAPH_INVALID_ARGUMENT);
  CHECK(std::string(ldpgraph_last_error()).find("graph config") != std::string::npos);
  CHECK(g == nullptr);
  CHECK(ldpgraph_graph_from_config(nullptr, 3, &g) == LDPGRAPH_INVALID_ARGUMENT);
  CHECK(ldpgraph_graph_from_config(junk, sizeof junk, nullptr) == LDPGRAPH_INVALID_ARGUMENT);

  CHECK(ldpgraph_graph_id(nullptr) == 0);
  CHECK(ldpgraph_graph_num_users(nullptr) == 0);

  ldpgraph_graph_params p;
  ldpgraph_graph_params_init(&p);
  p.num_users = 10;
  p.edge_mechanism = 5;  // past the last mechanism
  CHECK(ldpgraph_graph_new(&p, &g) == LDPGRAPH_INVALID_ARGUMENT);
}

TEST_CASE("CApiConfig.AReportBoundThatDoesNotFitSizeTSaturates") {
  // LocalLap on 2^32 - 1 users may need 10 bytes per other user: 43 GB,
  // which a 32-bit device cannot address. The bound must say so (SIZE_MAX),
  // not wrap to a small buffer.
  ldpgraph_graph_params params;
  ldpgraph_graph_params_init(&params);
  params.num_users = 0xFFFFFFFFu;
  params.edge_mechanism = LDPGRAPH_EDGES_LOCALLAP;
  ldpgraph_graph* graph = nullptr;
  REQUIRE_MESSAGE(ldpgraph_graph_new(&params, &graph) == LDPGRAPH_OK, ldpgraph_last_error());
  const std::uint64_t bound = 128 + 10 * (std::uint64_t{0xFFFFFFFFu} - 1);
  if (bound > SIZE_MAX) {
    CHECK(ldpgraph_graph_max_report_bytes(graph) == SIZE_MAX);
  } else {
    CHECK(ldpgraph_graph_max_report_bytes(graph) == bound);
  }
  ldpgraph_graph_free(graph);
}

namespace {

struct MemoryLedger {
  std::vector<std::uint8_t> state;
  static int Load(void* self, ldpgraph_sink* sink) {
    auto* m = static_cast<MemoryLedger*>(self);
    ldpgraph_sink_append(sink, m->state.data(), m->state.size());
    return 0;
  }
  static int Store(void* self, const std::uint8_t* data, std::size_t len) {
    static_cast<MemoryLedger*>(self)->state.assign(data, data + len);
    return 0;
  }
};

ldpgraph_graph* FromConfig(const ldpgraph::GraphConfig& c) {
  std::vector<std::uint8_t> bytes;
  REQUIRE(ldpgraph::EncodeGraphConfig(c, &bytes).ok());
  ldpgraph_graph* g = nullptr;
  const ldpgraph_status s = ldpgraph_graph_from_config(bytes.data(), bytes.size(), &g);
  REQUIRE_MESSAGE(s == LDPGRAPH_OK, std::string(ldpgraph_last_error()));
  return g;
}

}  // namespace

TEST_CASE("CApiConfig.AnEmbeddingGraphsOwnerReportsOnceThroughTheLedger") {
  ldpgraph::GraphConfig c;
  c.graph_id = 9;
  c.num_users = 2;
  c.embedding.enabled = true;
  c.embedding.dims = 2;
  c.embedding.epsilon = 4;
  c.embedding.encoding = ldpgraph::EmbeddingEncoding::kSummary;
  c.embedding.value_bins = 2;
  c.embedding.size_bins = 2;
  c.embedding.min_nodes = 10;
  c.embedding.max_nodes = 100;
  ldpgraph_graph* summary = FromConfig(c);
  CHECK(ldpgraph_graph_embedding_dims(summary) == 2);
  c.graph_id = 10;
  c.num_users = 30;
  c.embedding.encoding = ldpgraph::EmbeddingEncoding::kMultiBit;
  ldpgraph_graph* rows = FromConfig(c);
  ldpgraph_graph_params p;
  ldpgraph_graph_params_init(&p);
  p.graph_id = 11;
  p.num_users = 30;
  ldpgraph_graph* users = nullptr;
  REQUIRE(ldpgraph_graph_new(&p, &users) == LDPGRAPH_OK);
  CHECK(ldpgraph_graph_embedding_dims(users) == 0);

  MemoryLedger memory;
  const ldpgraph_ledger_callbacks callbacks{&memory, &MemoryLedger::Load, &MemoryLedger::Store};
  ldpgraph_ledger* ledger = nullptr;
  REQUIRE(ldpgraph_ledger_open(&callbacks, 100, &ledger) == LDPGRAPH_OK);
  ldpgraph_rng* rng = nullptr;
  REQUIRE(ldpgraph_rng_new_seeded_not_private(4, &rng) == LDPGRAPH_OK);
  const std::vector<double> h(2 * 57, 0.3);  // 57 nodes: the summary's size stays private
  std::vector<std::uint8_t> out(ldpgraph_graph_max_report_bytes(summary));
  std::size_t len = 0;
  REQUIRE_MESSAGE(ldpgraph_ledger_report_embedding(ledger, summary, rng, h.data(), 57, 2, 0, 0, out.data(), out.size(),
                                                   &len) == LDPGRAPH_OK,
                  ldpgraph_last_error());
  const std::vector<std::uint8_t> first(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(len));
  CHECK(ldpgraph_ledger_spent(ledger) == 4);
  // Asked again with other data: the recorded bytes, nothing spent.
  const std::vector<double> other(2 * 12, 0.9);
  REQUIRE(ldpgraph_ledger_report_embedding(ledger, summary, rng, other.data(), 12, 2, 0, 0, out.data(), out.size(),
                                           &len) == LDPGRAPH_OK);
  CHECK(std::vector<std::uint8_t>(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(len)) == first);
  CHECK(ldpgraph_ledger_spent(ledger) == 4);
  auto decoded = ldpgraph::DecodeReport(first.data(), first.size());
  REQUIRE(decoded.ok());
  CHECK(decoded->has_summary);
  CHECK(decoded->summary.cell < 8);

  // The multi-bit encoding needs n rows; its bound holds the report.
  std::vector<std::uint8_t> big(ldpgraph_graph_max_report_bytes(rows));
  const std::vector<double> h30(2 * 30, 0.6);
  CHECK(ldpgraph_ledger_report_embedding(ledger, rows, rng, h30.data(), 29, 2, 0, 0, big.data(), big.size(), &len) ==
        LDPGRAPH_INVALID_ARGUMENT);
  REQUIRE_MESSAGE(ldpgraph_ledger_report_embedding(ledger, rows, rng, h30.data(), 30, 2, 0, 0, big.data(), big.size(),
                                                   &len) == LDPGRAPH_OK,
                  ldpgraph_last_error());
  CHECK(ldpgraph_ledger_spent(ledger) == 8);

  // Refusals: the wrong columns, a graph of users, a NaN, edges on an
  // embedding graph, nulls; none spends anything.
  ldpgraph::GraphConfig fresh = c;
  fresh.graph_id = 12;
  fresh.embedding.encoding = ldpgraph::EmbeddingEncoding::kSummary;
  ldpgraph_graph* unreported = FromConfig(fresh);
  CHECK(ldpgraph_ledger_report_embedding(ledger, unreported, rng, h.data(), 38, 3, 0, 0, out.data(), out.size(),
                                         &len) == LDPGRAPH_INVALID_ARGUMENT);
  CHECK(std::string(ldpgraph_last_error()).find("2 columns, got 3") != std::string::npos);
  CHECK(ldpgraph_ledger_report_embedding(ledger, users, rng, h.data(), 57, 2, 0, 0, out.data(), out.size(), &len) ==
        LDPGRAPH_FAILED_PRECONDITION);
  std::vector<double> nan = h;
  nan[5] = std::nan("");
  CHECK(ldpgraph_ledger_report_embedding(ledger, unreported, rng, nan.data(), 57, 2, 0, 0, out.data(), out.size(),
                                         &len) == LDPGRAPH_INVALID_ARGUMENT);
  CHECK(ldpgraph_ledger_report_embedding(ledger, unreported, rng, nullptr, 57, 2, 0, 0, out.data(), out.size(),
                                         &len) == LDPGRAPH_INVALID_ARGUMENT);
  CHECK(ldpgraph_ledger_report_embedding(ledger, unreported, rng, h.data(), 57, 2, 1, 0, out.data(), out.size(),
                                         &len) == LDPGRAPH_INVALID_ARGUMENT);  // a label the graph does not collect
  CHECK(ldpgraph_ledger_spent(ledger) == 8);
  const std::uint32_t friends[] = {1};
  std::vector<std::uint32_t> noisy(ldpgraph_graph_max_neighbours(summary) + 1);
  std::size_t count = 0;
  CHECK(ldpgraph_perturb_edges(summary, rng, 0, friends, 1, noisy.data(), noisy.size(), &count) ==
        LDPGRAPH_FAILED_PRECONDITION);

  ldpgraph_rng_free(rng);
  ldpgraph_ledger_free(ledger);
  for (ldpgraph_graph* g : {summary, rows, users, unreported}) ldpgraph_graph_free(g);
}
