// The C ABI's graphs from the daemon's binary configuration: the same graph
// as from parameters (byte-identical reports for one seed), RR-with-degree
// included; bytes that do not decode, and embedding graphs, are refused
// with the reason.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "ldpgraph/graph_config_codec.h"
#include "ldpgraph/ldpgraph.h"

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

TEST_CASE("CApiConfig.RefusesWhatDoesNotDecodeAndEmbeddingGraphs") {
  ldpgraph_graph* g = nullptr;
  const std::uint8_t junk[] = {0x4C, 0x43, 9};
  CHECK(ldpgraph_graph_from_config(junk, sizeof junk, &g) == LDPGRAPH_INVALID_ARGUMENT);
  CHECK(std::string(ldpgraph_last_error()).find("graph config") != std::string::npos);
  CHECK(g == nullptr);
  CHECK(ldpgraph_graph_from_config(nullptr, 3, &g) == LDPGRAPH_INVALID_ARGUMENT);
  CHECK(ldpgraph_graph_from_config(junk, sizeof junk, nullptr) == LDPGRAPH_INVALID_ARGUMENT);

  ldpgraph::GraphConfig c;
  c.graph_id = 9;
  c.num_users = 30;
  c.embedding.enabled = true;
  c.embedding.dims = 2;
  c.embedding.epsilon = 4;
  std::vector<std::uint8_t> bytes;
  REQUIRE(ldpgraph::EncodeGraphConfig(c, &bytes).ok());
  CHECK(ldpgraph_graph_from_config(bytes.data(), bytes.size(), &g) == LDPGRAPH_INVALID_ARGUMENT);
  CHECK(std::string(ldpgraph_last_error()).find("embedding graph") != std::string::npos);
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
