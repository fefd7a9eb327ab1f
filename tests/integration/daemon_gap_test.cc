// GAP on a real ldpgraphd: an owner uploads a graph whole (trusted to the
// server), jobs train GAP on it under edge- and node-level DP, the model
// versions record their guarantee and serve the predictions they made from
// their release, across a restart and after the owner takes the graph back.
// Every bad upload or job is refused with its reason and changes nothing.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <sys/wait.h>

#include <nlohmann/json.hpp>

#include "support/admin_daemon.h"
#include "support/held_graph_upload.h"
#include "support/run_command.h"

using ldpgraph::testing::DaemonProcess;
using ldpgraph::testing::DaemonSettings;
using nlohmann::json;

namespace {

using Daemon = ldpgraph::testing::AdminDaemon;

json Communities(std::uint32_t nodes = 900) { return ldpgraph::testing::CommunitiesUpload(nodes); }

// Runs `command`; its exit status and everything it printed.
std::pair<int, std::string> Run(const std::string& command) {
  const ldpgraph::testing::CommandResult r = ldpgraph::testing::RunCommand(command + " 2>&1");
  return {r.status, r.output};
}

std::uint64_t StartJob(Daemon& d, const json& job) {
  auto started = d.Admin("POST", "/v1/admin/jobs", job.dump());
  REQUIRE_MESSAGE(started.status == 202, started.body);
  return json::parse(started.body)["job_id"].get<std::uint64_t>();
}

}  // namespace

TEST_CASE("DaemonGap.HeldGraphTrainsAtBothLevelsAndServesItsRelease") {
  Daemon d;
  const json graph = Communities();
  auto uploaded = d.Admin("PUT", "/v1/admin/held-graphs/7", graph.dump());
  REQUIRE_MESSAGE(uploaded.status == 201, uploaded.body);
  const json summary = json::parse(uploaded.body);
  CHECK(summary["graph_id"] == 7);
  CHECK(summary["num_nodes"] == 900);
  CHECK(summary["edges"] == graph["edges"].size());
  CHECK(summary["labelled"] == 900);
  CHECK(d.Admin("PUT", "/v1/admin/held-graphs/7", graph.dump()).status == 409);

  const json edge = d.Wait(StartJob(d, {{"task", "gap"}, {"held_graph", 7}, {"privacy", "edge"}, {"epsilon", 4},
                                         {"epochs", 40}, {"seed", 1}}));
  REQUIRE_MESSAGE(edge["state"] == "succeeded", edge.dump());
  CHECK(edge["test_accuracy"].get<double>() > 0.8);  // homophilous: the aggregates carry the class
  CHECK(edge["epoch"] == 80);                          // encoder and classifier, 40 each
  const json node = d.Wait(StartJob(d, {{"task", "gap"}, {"held_graph", 7}, {"privacy", "node"}, {"epsilon", 8},
                                         {"max_degree", 5}, {"batch_size", 100}, {"epochs", 20}}));
  REQUIRE_MESSAGE(node["state"] == "succeeded", node.dump());
  CHECK(node["test_accuracy"].get<double>() > 1.0 / 3 + 0.2);
  const json progressive = d.Wait(StartJob(d, {{"task", "gap"}, {"model", "progap"}, {"held_graph", 7},
                                                {"privacy", "edge"}, {"epsilon", 4}, {"epochs", 40}, {"seed", 1}}));
  REQUIRE_MESSAGE(progressive["state"] == "succeeded", progressive.dump());
  CHECK(progressive["test_accuracy"].get<double>() > 0.8);
  CHECK(progressive["epoch"] == 120);  // three stages, 40 each

  const json models = json::parse(d.Admin("GET", "/v1/admin/models").body)["models"];
  REQUIRE(models.size() == 3);
  for (const json& m : models) {
    INFO(m.dump());
    CHECK(m["model"] == (m == models[2] ? "progap" : "gap"));
    CHECK(m["held_graph"] == 7);
    const double target = m["privacy"] == "edge" ? 4 : 8;
    CHECK(m["epsilon"].get<double>() <= target);
    CHECK(m["epsilon"].get<double>() >= 0.99 * target);
    CHECK(m["delta"].get<double>() > 0);
    CHECK(m["noise_multiplier"].get<double>() > 0);
    CHECK(m["noise_stddev"].get<double>() > m["noise_multiplier"].get<double>());
  }
  CHECK(models[1]["privacy"] == "node");
  CHECK(models[1]["max_degree"] == 5);
  CHECK(models[2]["stages"] == 3);
  CHECK(models[2]["stage_test_accuracy"].size() == 3);
  CHECK(models[2]["privacy"] == "edge");
  const std::string progap_predict = "/v1/admin/models/" + std::to_string(models[2]["version"].get<int>()) + "/predict";
  const auto progap_answer = d.Admin("POST", progap_predict, R"({"nodes": [0, 450, 899]})");
  REQUIRE_MESSAGE(progap_answer.status == 200, progap_answer.body);

  const std::string predict = "/v1/admin/models/" + std::to_string(models[0]["version"].get<int>()) + "/predict";
  auto answer = d.Admin("POST", predict, R"({"nodes": [0, 450, 899]})");
  REQUIRE_MESSAGE(answer.status == 200, answer.body);
  const json predictions = json::parse(answer.body)["predictions"];
  REQUIRE(predictions.size() == 3);
  for (const json& p : predictions) {
    double sum = 0;
    for (const json& q : p["probabilities"]) sum += q.get<double>();
    CHECK(sum == doctest::Approx(1.0).epsilon(1e-5));
  }
  CHECK(d.Admin("POST", predict, R"({"nodes": [900]})").status == 400);
  CHECK(d.Admin("POST", predict, R"({"graphs": [7]})").status == 400);

  // A restart keeps the graph and the models; the predictions are the same.
  d.process.Stop();
  d.Start();
  CHECK(json::parse(d.Admin("GET", "/v1/admin/held-graphs").body)["held_graphs"].size() == 1);
  CHECK(d.Admin("POST", predict, R"({"nodes": [0, 450, 899]})").body == answer.body);
  CHECK(d.Admin("POST", progap_predict, R"({"nodes": [0, 450, 899]})").body == progap_answer.body);

  // The owner takes the graph back: the model keeps only its release.
  CHECK(d.Admin("DELETE", "/v1/admin/held-graphs/7").status == 200);
  CHECK(d.Admin("DELETE", "/v1/admin/held-graphs/7").status == 404);
  CHECK(json::parse(d.Admin("GET", "/v1/admin/held-graphs").body)["held_graphs"].empty());
  CHECK(d.Admin("POST", predict, R"({"nodes": [0, 450, 899]})").body == answer.body);
  CHECK(d.Admin("POST", "/v1/admin/jobs", R"({"task": "gap", "held_graph": 7, "epsilon": 1})").status == 404);
}

TEST_CASE("DaemonGap.BadUploadsAndJobsAreRefusedAndChangeNothing") {
  DaemonSettings settings;
  settings.extra_server = "max_body_bytes = 16384\n";  // the reports' limit; uploads have their own
  Daemon d(settings);
  const json good = Communities(300);
  REQUIRE(good.dump().size() > 16384);
  // Over the reports' limit: only the admin's upload may be that large.
  CHECK(d.Call("PUT", "/v1/admin/held-graphs/1", good.dump(), "").status == 413);
  d.client->Disconnect();
  CHECK(d.Call("PUT", "/v1/admin/held-graphs/1", "{}", "").status == 401);
  REQUIRE(d.Admin("PUT", "/v1/admin/held-graphs/1", good.dump()).status == 201);

  struct Case {
    const char* what;
    std::function<void(json&)> spoil;
    const char* message;
  };
  const std::vector<Case> uploads = {
      {"self-loop", [](json& g) { g["edges"].push_back({4, 4}); }, "is a self-loop"},
      {"edge out of range", [](json& g) { g["edges"].push_back({4, 300}); }, "not below num_nodes"},
      {"negative node", [](json& g) { g["edges"].push_back({-1, 3}); }, "must be [u, v]"},
      {"feature out of range", [](json& g) { g["features"].push_back({0, 60, 1.0}); }, "outside num_nodes x feature_dims"},
      {"feature twice", [](json& g) { g["features"].push_back(g["features"][0]); }, "is given twice"},
      {"no value", [](json& g) { g["features"][0][2] = nullptr; }, "[node, feature, value]"},
      {"value beyond a float", [](json& g) { g["features"][0][2] = 1e300; }, "not a finite float"},
      {"label out of range", [](json& g) { g["labels"][5] = 3; }, "not in [-1, classes)"},
      {"labels short", [](json& g) { g["labels"].erase(0); }, "one entry per node"},
      {"one class", [](json& g) { g["classes"] = 1; }, "classes must be in [2, 65536]"},
      {"one node", [](json& g) { g["num_nodes"] = 1; }, "num_nodes must be in [2, 2^30]"},
      {"unknown field", [](json& g) { g["weights"] = 1; }, "unknown field"},
      {"no edges", [](json& g) { g.erase("edges"); }, "must be an array"},
  };
  for (const Case& c : uploads) {
    json bad = good;
    c.spoil(bad);
    auto answer = d.Admin("PUT", "/v1/admin/held-graphs/2", bad.dump());
    INFO(std::string(c.what) << ": " << answer.body);
    CHECK(answer.status == 400);
    CHECK(answer.body.find(c.message) != std::string::npos);
  }
  auto not_json = d.Admin("PUT", "/v1/admin/held-graphs/2", "{not json");
  CHECK(not_json.status == 400);
  CHECK(not_json.body.find("body is not JSON") != std::string::npos);
  json marked = good;  // a value JSON can write and a double cannot hold
  marked["features"][0][2] = 12345.5;
  std::string overflow = marked.dump();
  overflow.replace(overflow.find("12345.5"), 7, "1e999");
  auto refused = d.Admin("PUT", "/v1/admin/held-graphs/2", overflow);
  CHECK(refused.status == 400);
  INFO(refused.body);
  CHECK(refused.body.find("number overflow") != std::string::npos);
  CHECK(d.Admin("PUT", "/v1/admin/held-graphs/x", good.dump()).status == 400);
  CHECK(json::parse(d.Admin("GET", "/v1/admin/held-graphs").body)["held_graphs"].size() == 1);

  const std::vector<std::pair<json, int>> jobs = {
      {{{"task", "gap"}, {"held_graph", 1}}, 400},                                  // no epsilon
      {{{"task", "gap"}, {"held_graph", 1}, {"epsilon", -1}}, 400},
      {{{"task", "gap"}, {"held_graph", 1}, {"epsilon", 0}}, 400},
      {{{"task", "gap"}, {"held_graph", 1}, {"epsilon", "nan"}}, 400},
      {{{"task", "gap"}, {"held_graph", 1}, {"epsilon", 1}, {"delta", 0}}, 400},
      {{{"task", "gap"}, {"held_graph", 1}, {"epsilon", 1}, {"delta", 1}}, 400},
      {{{"task", "gap"}, {"held_graph", 1}, {"epsilon", 1}, {"hops", 0}}, 400},
      {{{"task", "gap"}, {"held_graph", 1}, {"epsilon", 1}, {"privacy", "node"}, {"max_degree", 0}}, 400},
      {{{"task", "gap"}, {"held_graph", 1}, {"epsilon", 1}, {"privacy", "node"}, {"batch_size", 0}}, 400},
      {{{"task", "gap"}, {"held_graph", 1}, {"epsilon", 1}, {"max_degree", 4}}, 400},  // edge level has no D
      {{{"task", "gap"}, {"held_graph", 1}, {"epsilon", 1}, {"privacy", "vertex"}}, 400},
      {{{"task", "gap"}, {"held_graph", 1}, {"epsilon", 1}, {"privacy", 1}}, 400},
      {{{"task", "gap"}, {"held_graph", 1}, {"epsilon", 1}, {"residual", "maybe"}}, 400},
      {{{"task", "gap"}, {"held_graph", 1}, {"epsilon", 1}, {"residual", true}}, 400},
      {{{"task", "gap"}, {"held_graph", 1}, {"epsilon", 1}, {"graphs", {1}}}, 400},
      {{{"task", "gap"}, {"held_graph", 9}, {"epsilon", 1}}, 404},
      {{{"task", "gap"}, {"held_graph", 1}, {"epsilon", 1}, {"privacy", "node"}, {"batch_size", 151}}, 422},
      {{{"task", "gap"}, {"held_graph", 1}, {"epsilon", 1}, {"model", "gin"}}, 400},
      {{{"task", "gap"}, {"held_graph", 1}, {"epsilon", 1}, {"model", 2}}, 400},
      {{{"task", "gap"}, {"held_graph", 1}, {"epsilon", 1}, {"model", "progap"}, {"residual", "on"}}, 400},
      {{{"task", "gap"}, {"held_graph", 1}, {"epsilon", 1}, {"model", "progap"}, {"privacy", "node"},
        {"batch_size", 151}},
       422},
  };
  for (const auto& job : jobs) {
    auto answer = d.Admin("POST", "/v1/admin/jobs", job.first.dump());
    INFO(job.first.dump() << ": " << answer.body);
    CHECK(answer.status == job.second);
  }
  CHECK(json::parse(d.Admin("GET", "/v1/admin/jobs").body)["jobs"].empty());  // nothing trained
}

TEST_CASE("DaemonGap.TheAdminCliHoldsTrainsListsAndDrops") {
  Daemon d;
  const std::string data = d.dir.path() + "/sbm";
  REQUIRE(Run(std::string(LDPGRAPH_CLI) + " generate --kind sbm --nodes 500 --degree 8 --features 40 --words 5 " +
              "--seed 3 --output " + data)
              .first == 0);
  const std::string cli = std::string("LDPGRAPH_ADMIN_TOKEN=") + DaemonProcess::kAdminToken + " " + LDPGRAPH_CLI +
                          " daemon ";
  const std::string where = " --daemon https://127.0.0.1:" + std::to_string(d.process.port()) + " --ca " +
                            d.process.pki().ca_certificate;
  const auto held = Run(cli + "hold --graph 5 --dataset " + data + where);
  INFO(held.second);
  REQUIRE(held.first == 0);
  CHECK(held.second.find("num_nodes=500") != std::string::npos);
  CHECK(Run(cli + "hold --graph 5 --dataset " + data + where).first == 1);  // 409: the id is taken
  CHECK(Run(cli + "held-graphs" + where).second.find("graph_id=5 num_nodes=500") != std::string::npos);
  const auto trained =
      Run(cli + "train --held-graph 5 --privacy node --epsilon 8 --max-degree 6 --epochs 10 --wait" + where);
  INFO(trained.second);
  CHECK(trained.first == 0);
  CHECK(trained.second.find("state=succeeded") != std::string::npos);
  const std::string models = Run(cli + "models" + where).second;
  CHECK(models.find("model=gap") != std::string::npos);
  CHECK(models.find("held_graph=5 privacy=node epsilon=") != std::string::npos);
  CHECK(Run(cli + "train --held-graph 5 --epsilon -1" + where).first != 0);
  CHECK(Run(cli + "unhold --graph 5" + where).first == 0);
  CHECK(Run(cli + "held-graphs" + where).second.empty());
}
