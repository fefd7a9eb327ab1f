// The device side through the C ABIs only (ldpgraph.h, ldpgraph_transport.h),
// against a real ldpgraphd: the graph from the daemon's configuration, a
// report built and uploaded, refusals told apart from errors.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ldpgraph/ldpgraph.h"
#include "ldpgraph/ldpgraph_transport.h"
#include "net/token_authority.h"
#include "support/admin_daemon.h"

using ldpgraph::testing::AdminDaemon;
using ldpgraph::testing::DaemonProcess;

namespace {

constexpr std::uint64_t kGraph = 7;
constexpr std::uint32_t kUsers = 100;

std::string Token(std::uint64_t graph, std::uint32_t user) {
  auto authority = ldpgraph::TokenAuthority::Create(DaemonProcess::kSecret);
  REQUIRE(authority.ok());
  return authority->Issue(graph, user);
}

std::uint64_t StoredReports(AdminDaemon& d) {
  const nlohmann::json list = nlohmann::json::parse(d.Admin("GET", "/v1/admin/graphs").body);
  for (const nlohmann::json& g : list["graphs"]) {
    if (g["graph_id"] == kGraph) return g["reports"].get<std::uint64_t>();
  }
  return 0;
}

}  // namespace

TEST_CASE("DaemonCAbi.ADeviceFetchesItsGraphBuildsItsReportAndUploadsIt") {
  AdminDaemon d;
  REQUIRE(d.Admin("POST", "/v1/admin/graphs",
                  R"({"graph_id": 7, "num_users": 100, "edges": {"mechanism": "dprr", "epsilon": 1.0},
                      "label": {"classes": 2, "epsilon": 1.0}})")
              .status == 201);
  ldpgraph_uploader_params p{};
  p.host = "127.0.0.1";
  p.port = d.process.port();
  const std::string ca = d.process.pki().ca_certificate;
  p.ca_file = ca.c_str();
  ldpgraph_uploader* u = nullptr;
  REQUIRE(ldpgraph_uploader_new(&p, &u) == LDPGRAPH_OK);

  // The graph from the daemon's configuration: the size first, then the bytes.
  std::size_t config_len = 0;
  CHECK(ldpgraph_uploader_fetch_config(u, kGraph, nullptr, 0, &config_len) == LDPGRAPH_BUFFER_TOO_SMALL);
  REQUIRE(config_len > 0);
  std::vector<std::uint8_t> config(config_len);
  REQUIRE(ldpgraph_uploader_fetch_config(u, kGraph, config.data(), config.size(), &config_len) == LDPGRAPH_OK);
  CHECK(ldpgraph_uploader_fetch_config(u, 999, config.data(), config.size(), &config_len) ==
        LDPGRAPH_FAILED_PRECONDITION);
  // A graph collected once: no round to report in.
  std::uint32_t open_round = 7;
  CHECK(ldpgraph_uploader_fetch_open_round(u, kGraph, &open_round) == LDPGRAPH_OK);
  CHECK(open_round == 0);
  CHECK(ldpgraph_uploader_fetch_open_round(u, 999, &open_round) == LDPGRAPH_FAILED_PRECONDITION);
  CHECK(ldpgraph_uploader_fetch_open_round(u, kGraph, nullptr) == LDPGRAPH_INVALID_ARGUMENT);
  ldpgraph_graph* graph = nullptr;
  REQUIRE(ldpgraph_graph_from_config(config.data(), config.size(), &graph) == LDPGRAPH_OK);
  CHECK(ldpgraph_graph_id(graph) == kGraph);
  CHECK(ldpgraph_graph_num_users(graph) == kUsers);

  // A report from the OS CSPRNG, uploaded with the user's token.
  ldpgraph_rng* rng = nullptr;
  REQUIRE(ldpgraph_rng_new_os(&rng) == LDPGRAPH_OK);
  const std::uint32_t friends[] = {1, 2, 3};
  ldpgraph_user_data user{};
  user.user_id = 10;
  user.neighbours = friends;
  user.neighbour_count = 3;
  user.has_label = 1;  // the graph collects one
  user.label = 1;
  std::vector<std::uint8_t> report(ldpgraph_graph_max_report_bytes(graph));
  std::size_t report_len = 0;
  REQUIRE(ldpgraph_report_new(graph, rng, &user, report.data(), report.size(), &report_len) == LDPGRAPH_OK);
  int status = 0;
  CHECK(ldpgraph_uploader_send(u, Token(kGraph, 10).c_str(), report.data(), report_len, &status) == LDPGRAPH_OK);
  CHECK(status == 200);
  // Another user's token for this report: refused for good, no retry, no error.
  CHECK(ldpgraph_uploader_send(u, Token(kGraph, 11).c_str(), report.data(), report_len, &status) == LDPGRAPH_OK);
  CHECK(status == 403);
  ldpgraph_rng_free(rng);
  ldpgraph_graph_free(graph);
  ldpgraph_uploader_free(u);
  CHECK(StoredReports(d) == 1);
}
