// Two real ldpgraphd processes on one real PostgreSQL server: a graph
// created through one is served by the other, devices upload through
// either and each user's report is stored once (a retry through the other
// daemon is a duplicate, another report a conflict), both count the same
// reports, and a daemon killed with SIGKILL loses nothing it acknowledged.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "api/graph_config_json.h"
#include "ldpgraph/report_builder.h"
#include "ldpgraph/wire_format.h"
#include "net/token_authority.h"
#include "support/admin_daemon.h"
#include "store/scratch_postgres.h"

using namespace ldpgraph;
using ldpgraph::testing::AdminDaemon;
using ldpgraph::testing::DaemonProcess;
using ldpgraph::testing::DaemonSettings;
using nlohmann::json;

namespace {

constexpr std::uint32_t kUsers = 200;
const char kGraphJson[] =
    R"({"graph_id": 7, "num_users": 200, "edges": {"mechanism": "dprr", "epsilon": 1.0}})";

std::string Report(std::uint32_t user, std::uint64_t seed) {
  GraphConfig config;
  config.graph_id = 7;
  config.num_users = kUsers;
  config.edges.epsilon = 1.0;
  auto builder = ReportBuilder::Create(config);
  REQUIRE(builder.ok());
  SeededRandomSource rng(seed);
  std::vector<std::uint32_t> friends = {(user + 1) % kUsers, (user + 7) % kUsers};
  UserData data;
  data.user_id = user;
  data.neighbours = Span<const std::uint32_t>(friends.data(), friends.size());
  auto report = (*builder)->Build(data, rng);
  REQUIRE(report.ok());
  std::vector<std::uint8_t> out;
  REQUIRE(EncodeReport(*report, &out).ok());
  return std::string(out.begin(), out.end());
}

std::string Token(std::uint32_t user) {
  auto authority = TokenAuthority::Create(DaemonProcess::kSecret);
  REQUIRE(authority.ok());
  return authority->Issue(7, user);
}

transport::HttpAnswer Upload(AdminDaemon& d, std::uint32_t user, std::uint64_t seed) {
  auto answer = d.client->Request("POST", "/v1/reports", "application/octet-stream", Report(user, seed), Token(user));
  REQUIRE_MESSAGE(answer.ok(), answer.status().message());
  return *answer;
}

std::uint64_t StoredReports(AdminDaemon& d) {
  const json list = json::parse(d.Admin("GET", "/v1/admin/graphs").body);
  for (const json& g : list["graphs"]) {
    if (g["graph_id"] == 7) return g["reports"].get<std::uint64_t>();
  }
  return 0;
}

DaemonSettings SharedStore(const ScratchPostgres& server, const std::string& database) {
  DaemonSettings s;
  s.store = "backend = \"postgresql\"\nconnection = \"" + server.Conninfo(database) + "\"\nstate_dir = \"state\"\n";
  s.env = {{"LDPGRAPH_STORE_PASSWORD", server.password()}};
  return s;
}

}  // namespace

TEST_CASE("DaemonPostgres.TwoDaemonsShareGraphsAndReportsAndLoseNothingToSigkill") {
  Result<std::unique_ptr<ScratchPostgres>> server = ScratchPostgres::Start();
  if (!server.ok()) {
    MESSAGE("skipped: " << server.status().ToString());
    return;
  }
  REQUIRE((*server)->CreateDatabase("shared").ok());
  AdminDaemon a(SharedStore(**server, "shared"));
  AdminDaemon b(SharedStore(**server, "shared"));
  REQUIRE(a.Admin("POST", "/v1/admin/graphs", kGraphJson).status == 201);
  CHECK(b.Admin("POST", "/v1/admin/graphs", kGraphJson).status == 409);  // the store decides, not the daemon
  CHECK(b.Call("GET", "/v1/graphs/7", "", "").status == 200);             // created through a, served by b

  for (std::uint32_t u = 0; u < kUsers; ++u) {
    const transport::HttpAnswer r = Upload(u % 2 == 0 ? a : b, u, u);
    INFO("user " << u << ": " << r.body);
    REQUIRE(r.status == 200);
    CHECK(json::parse(r.body)["outcome"] == "stored");
  }
  // A device whose answer was lost retries through the other daemon.
  const transport::HttpAnswer retry = Upload(b, 0, 0);
  CHECK(retry.status == 200);
  CHECK(json::parse(retry.body)["outcome"] == "duplicate");
  CHECK(Upload(a, 1, 999).status == 409);  // another report for a user already counted
  CHECK(StoredReports(a) == kUsers);
  CHECK(StoredReports(b) == kUsers);

  // SIGKILL: nothing a acknowledged is lost; b serves on, a comes back.
  a.process.Kill();
  CHECK(StoredReports(b) == kUsers);
  a.Start();
  CHECK(StoredReports(a) == kUsers);
  CHECK((*server)->Scalar("shared", "SELECT count(*) FROM reports").value() == std::to_string(kUsers));
}

TEST_CASE("DaemonPostgres.AWrongPasswordStopsTheDaemonAndNeverShowsIt") {
  Result<std::unique_ptr<ScratchPostgres>> server = ScratchPostgres::Start();
  if (!server.ok()) {
    MESSAGE("skipped: " << server.status().ToString());
    return;
  }
  REQUIRE((*server)->CreateDatabase("denied").ok());
  ldpgraph::testing::TempDir dir;
  DaemonSettings s = SharedStore(**server, "denied");
  s.env = {{"LDPGRAPH_STORE_PASSWORD", "wrong-password-8812"}};
  DaemonProcess d(LDPGRAPHD, dir.path(), s);
  CHECK_FALSE(d.Start());
  CHECK(d.log().find("password authentication failed") != std::string::npos);
  CHECK(d.log().find("wrong-password-8812") == std::string::npos);
}
