// The Java sample app (examples/java_client) as 300 phones against a real
// ldpgraphd on loopback TLS: each fetches the configuration, builds its
// user's report through the Java library (ledger in its own storage), and
// uploads it; after a node job each asks for her own result, which must be
// the admin API's prediction for her.
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "ldpgraph/samplers.h"
#include "net/token_authority.h"
#include "support/admin_daemon.h"
#include "support/run_command.h"

using ldpgraph::testing::AdminDaemon;
using ldpgraph::testing::DaemonProcess;
using nlohmann::json;

TEST_CASE("JavaClient.ThreeHundredPhonesReportThenEachReadsItsOwnResult") {
  AdminDaemon d;
  constexpr std::uint32_t kN = 300;
  const json create = {{"graph_id", 500},
                       {"num_users", kN},
                       {"edges", {{"mechanism", "dprr"}, {"epsilon", 2.0}}},
                       {"features", {{"dims", 4}, {"epsilon", 2.0}}},
                       {"label", {{"classes", 2}, {"epsilon", 2.0}}}};
  REQUIRE(d.Admin("POST", "/v1/admin/graphs", create.dump()).status == 201);
  auto authority = ldpgraph::TokenAuthority::Create(DaemonProcess::kSecret);
  REQUIRE(authority.ok());

  // Two communities; each phone's line: user token friends features label.
  ldpgraph::SeededRandomSource rng(8);
  std::vector<std::vector<std::uint32_t>> friends(kN);
  for (std::uint32_t u = 0; u < kN; ++u) {
    for (std::uint32_t v = u + 1; v < kN; ++v) {
      if (ldpgraph::UniformUnit(rng) < ((u < kN / 2) == (v < kN / 2) ? 0.06 : 0.004)) {
        friends[u].push_back(v);
        friends[v].push_back(u);
      }
    }
  }
  const std::string devices = d.dir.path() + "/devices.txt";
  {
    std::ofstream out(devices);
    for (std::uint32_t u = 0; u < kN; ++u) {
      const int cls = u < kN / 2 ? 0 : 1;
      out << u << ' ' << authority->Issue(500, u) << ' ';
      if (friends[u].empty()) out << '-';
      for (std::size_t i = 0; i < friends[u].size(); ++i) out << (i ? "," : "") << friends[u][i];
      out << ' ';
      for (int j = 0; j < 4; ++j) out << (j ? "," : "") << (cls ? 0.75 : 0.25);
      out << ' ' << cls << '\n';
    }
  }
  const std::string java = std::string(JAVA) + " -Djava.library.path=" + JNI_DIR + " -cp " + JAVA_CLASS_PATH +
                           " JavaClient %s 127.0.0.1 " + std::to_string(d.process.port()) + " " +
                           d.process.pki().ca_certificate + " 500 " + devices + " " + d.dir.path() + "/phones 2>&1";
  char command[4096];
  std::snprintf(command, sizeof command, java.c_str(), "report");
  const ldpgraph::testing::CommandResult reported = ldpgraph::testing::RunCommand(command);
  INFO(reported.output);
  REQUIRE(reported.status == 0);
  CHECK(reported.output.find("delivered=300") != std::string::npos);
  // Reporting again changes nothing: each phone's ledger gives the same bytes, the daemon counts them once.
  REQUIRE(ldpgraph::testing::RunCommand(command).status == 0);
  const json graphs = json::parse(d.Admin("GET", "/v1/admin/graphs").body);
  CHECK(graphs["graphs"][0]["reports"] == kN);

  const auto started = d.Admin("POST", "/v1/admin/jobs", R"({"task": "node", "graph": 500, "seed": 1, "epochs": 60})");
  REQUIRE_MESSAGE(started.status == 202, started.body);
  REQUIRE(d.Wait(json::parse(started.body)["job_id"])["state"] == "succeeded");
  json all = json{{"nodes", json::array()}};
  for (std::uint32_t u = 0; u < kN; ++u) all["nodes"].push_back(u);
  const json admin = json::parse(d.Admin("POST", "/v1/admin/models/1/predict", all.dump()).body)["predictions"];

  std::snprintf(command, sizeof command, java.c_str(), "result");
  const ldpgraph::testing::CommandResult results = ldpgraph::testing::RunCommand(command);
  INFO(results.output);
  REQUIRE(results.status == 0);
  std::istringstream lines(results.output);
  std::map<std::uint32_t, long> classes;
  for (std::string line; std::getline(lines, line);) {
    std::uint32_t user = 0;
    long cls = 0, model = 0;
    if (std::sscanf(line.c_str(), "user=%u class=%ld model=%ld", &user, &cls, &model) == 3) {
      CHECK(model == 1);
      classes[user] = cls;
    }
  }
  REQUIRE(classes.size() == kN);
  int same = 0;
  for (std::uint32_t u = 0; u < kN; ++u) same += classes[u] == admin[u]["class"].get<long>();
  CHECK(same == static_cast<int>(kN));
}
