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

namespace {

// Two communities of n phones, friends mostly within.
std::vector<std::vector<std::uint32_t>> Communities(std::uint32_t n) {
  ldpgraph::SeededRandomSource rng(8);
  std::vector<std::vector<std::uint32_t>> friends(n);
  for (std::uint32_t u = 0; u < n; ++u) {
    for (std::uint32_t v = u + 1; v < n; ++v) {
      if (ldpgraph::UniformUnit(rng) < ((u < n / 2) == (v < n / 2) ? 0.06 : 0.004)) {
        friends[u].push_back(v);
        friends[v].push_back(u);
      }
    }
  }
  return friends;
}

// The file JavaClient reads: each phone's line is user token friends features label.
std::string WritePhones(const AdminDaemon& d, std::uint64_t graph,
                        const std::vector<std::vector<std::uint32_t>>& friends) {
  auto authority = ldpgraph::TokenAuthority::Create(DaemonProcess::kSecret);
  REQUIRE(authority.ok());
  const std::string path = d.dir.path() + "/devices-" + std::to_string(graph) + ".txt";
  std::ofstream out(path);
  const auto n = static_cast<std::uint32_t>(friends.size());
  for (std::uint32_t u = 0; u < n; ++u) {
    const int cls = u < n / 2 ? 0 : 1;
    out << u << ' ' << authority->Issue(graph, u) << ' ';
    if (friends[u].empty()) out << '-';
    for (std::size_t i = 0; i < friends[u].size(); ++i) out << (i ? "," : "") << friends[u][i];
    out << ' ';
    for (int j = 0; j < 4; ++j) out << (j ? "," : "") << (cls ? 0.75 : 0.25);
    out << ' ' << cls << '\n';
  }
  return path;
}

// The command line of JavaClient ACTION for `graph`, its phones in `devices`.
std::string JavaClient(const AdminDaemon& d, const std::string& action, std::uint64_t graph,
                       const std::string& devices) {
  return std::string(JAVA) + " -Djava.library.path=" + JNI_DIR + " -cp " + JAVA_CLASS_PATH + " JavaClient " + action +
         " 127.0.0.1 " + std::to_string(d.process.port()) + " " + d.process.pki().ca_certificate + " " +
         std::to_string(graph) + " " + devices + " " + d.dir.path() + "/phones-" + std::to_string(graph) + " 2>&1";
}

}  // namespace

TEST_CASE("JavaClient.ThreeHundredPhonesReportThenEachReadsItsOwnResult") {
  AdminDaemon d;
  constexpr std::uint32_t kN = 300;
  const json create = {{"graph_id", 500},
                       {"num_users", kN},
                       {"edges", {{"mechanism", "dprr"}, {"epsilon", 2.0}}},
                       {"features", {{"dims", 4}, {"epsilon", 2.0}}},
                       {"label", {{"classes", 2}, {"epsilon", 2.0}}}};
  REQUIRE(d.Admin("POST", "/v1/admin/graphs", create.dump()).status == 201);
  const std::string devices = WritePhones(d, 500, Communities(kN));
  const std::string report = JavaClient(d, "report", 500, devices);
  const ldpgraph::testing::CommandResult reported = ldpgraph::testing::RunCommand(report);
  INFO(reported.output);
  REQUIRE(reported.status == 0);
  CHECK(reported.output.find("round=0\n") != std::string::npos);  // a graph collected once
  CHECK(reported.output.find("delivered=300") != std::string::npos);
  // Reporting again changes nothing: each phone's ledger gives the same bytes, the daemon counts them once.
  REQUIRE(ldpgraph::testing::RunCommand(report).status == 0);
  const json graphs = json::parse(d.Admin("GET", "/v1/admin/graphs").body);
  CHECK(graphs["graphs"][0]["reports"] == kN);

  const auto started = d.Admin("POST", "/v1/admin/jobs", R"({"task": "node", "graph": 500, "seed": 1, "epochs": 60})");
  REQUIRE_MESSAGE(started.status == 202, started.body);
  REQUIRE(d.Wait(json::parse(started.body)["job_id"])["state"] == "succeeded");
  json all = json{{"nodes", json::array()}};
  for (std::uint32_t u = 0; u < kN; ++u) all["nodes"].push_back(u);
  const json admin = json::parse(d.Admin("POST", "/v1/admin/models/1/predict", all.dump()).body)["predictions"];

  const ldpgraph::testing::CommandResult results = ldpgraph::testing::RunCommand(JavaClient(d, "result", 500, devices));
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

TEST_CASE("JavaClient.PhonesReportEachRoundTheDaemonOpens") {
  AdminDaemon d;
  constexpr std::uint32_t kN = 60;
  const json create = {{"graph_id", 501},
                       {"num_users", kN},
                       {"edges", {{"mechanism", "rr"}, {"epsilon", 2.0}}},
                       {"features", {{"dims", 4}, {"epsilon", 2.0}}},
                       {"label", {{"classes", 2}, {"epsilon", 2.0}}},
                       {"rounds", json::object()}};
  REQUIRE(d.Admin("POST", "/v1/admin/graphs", create.dump()).status == 201);
  const std::string devices = WritePhones(d, 501, Communities(kN));
  for (int round = 1; round <= 2; ++round) {
    const ldpgraph::testing::CommandResult reported = ldpgraph::testing::RunCommand(JavaClient(d, "report", 501, devices));
    INFO(reported.output);
    REQUIRE(reported.status == 0);
    CHECK(reported.output.find("round=" + std::to_string(round) + "\n") != std::string::npos);
    CHECK(reported.output.find("delivered=60") != std::string::npos);
    const auto closed = d.Admin("POST", "/v1/admin/graphs/501/rounds", json{{"close", round}}.dump());
    REQUIRE_MESSAGE(closed.status == 201, closed.body);
  }
  CHECK(json::parse(d.Admin("GET", "/v1/admin/graphs/501/rounds").body)["open"] == 3);
  // A third round of unchanged phones: each ledger's loss is still one
  // round's (edges, features and label at 2 each), fresh noise would be 3.
  const ldpgraph::testing::CommandResult third = ldpgraph::testing::RunCommand(JavaClient(d, "report", 501, devices));
  INFO(third.output);
  CHECK(third.output.find("round=3\nphones=60\ndelivered=60\nloss_mean=6.0\nnaive_mean=18.0\n") != std::string::npos);
}
