// The rounds sample app (examples/fleet_simulator/rounds_fleet.cc, the
// demo's second step) as a few hundred phones against a real ldpgraphd:
// three rounds of changing friend lists, each phone's ledger in a file.
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "support/admin_daemon.h"
#include "support/run_command.h"

namespace {

using ldpgraph::testing::AdminDaemon;
using ldpgraph::testing::DaemonProcess;

// The key=value fields of the app's line for round `round`.
std::map<std::string, double> RoundLine(const std::string& output, int round) {
  std::istringstream lines(output);
  std::map<std::string, double> fields;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("round=" + std::to_string(round) + " ", 0) != 0) continue;
    std::istringstream words(line);
    for (std::string word; words >> word;) {
      const std::size_t eq = word.find('=');
      if (eq != std::string::npos) fields[word.substr(0, eq)] = std::stod(word.substr(eq + 1));
    }
  }
  return fields;
}

TEST_CASE("RoundsFleet.ThreeRoundsOfPhonesWhoseFriendsChange") {
  AdminDaemon d;
  const std::string data = d.dir.path() + "/social";
  const std::string generate = std::string(LDPGRAPH_CLI) + " generate --kind sbm --nodes 300 --degree 8 --classes 2 " +
                               "--homophily 0.9 --features 16 --words 6 --signal 0.4 --seed 3 --output " + data;
  REQUIRE(ldpgraph::testing::RunCommand(generate).status == 0);
  const std::string token_file = d.dir.path() + "/admin-token";
  std::ofstream(token_file) << DaemonProcess::kAdminToken << "\n";
  const std::string phones = d.dir.path() + "/phones";
  REQUIRE(ldpgraph::testing::RunCommand("mkdir -p " + phones).status == 0);
  const std::string app = std::string(ROUNDS_FLEET) + " --daemon https://127.0.0.1:" + std::to_string(d.process.port()) +
                          " --ca " + d.process.pki().ca_certificate + " --admin-token-file " + token_file +
                          " --dataset " + data + " --ledgers " + phones + " --rounds 3 --epochs 30 --clients 16 2>&1";
  const ldpgraph::testing::CommandResult run = ldpgraph::testing::RunCommand(app);
  INFO(run.output);
  REQUIRE(run.status == 0);
  const auto first = RoundLine(run.output, 1), last = RoundLine(run.output, 3);
  REQUIRE(!first.empty());
  REQUIRE(!last.empty());
  // Edges, features and labels at 4 each: one round costs 12.
  CHECK(first.at("loss_mean") == doctest::Approx(12));
  CHECK(first.at("lists_changed") == 0);
  for (const auto* r : {&first, &last}) {
    CHECK(r->at("delivered") == 300);
    CHECK(r->at("refused") == 0);
    CHECK(r->at("test_accuracy") > 0.7);
  }
  CHECK(last.at("model_version") == 3);
  CHECK(last.at("lists_changed") > 0);
  // Three rounds: unchanged phones still at one round's loss, the changed
  // ones above it, fresh noise at three.
  CHECK(last.at("loss_never_changed") == doctest::Approx(12));
  CHECK(last.at("loss_mean") > 12);
  CHECK(last.at("loss_max") <= 2 * 3.6 + 3 * 0.4 + 8 + 1e-9);
  CHECK(last.at("naive") == doctest::Approx(36));
  // A second run against the same daemon is refused up front: the graph exists.
  CHECK(ldpgraph::testing::RunCommand(app).status != 0);
}

}  // namespace
