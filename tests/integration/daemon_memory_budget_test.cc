// The daemon's memory budget against a real process (issue 66): work that
// can never fit it is refused before it starts, uploads and predictions
// lease their memory while they run, estimates count a dense graph's edges,
// and an upload is decided from its header before its body is read.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdlib>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "requests/graph_config_json.h"
#include "ldpgraph/report_builder.h"
#include "ldpgraph/wire_format.h"
#include "net/token_authority.h"
#include "support/admin_daemon.h"
#include "support/admin_reports.h"
#include "support/daemon_log.h"
#include "support/held_graph_upload.h"

using ldpgraph::testing::AdminDaemon;
using ldpgraph::testing::CommunitiesUpload;
using ldpgraph::testing::Events;
using ldpgraph::testing::LogLines;
using ldpgraph::testing::TempDir;
using ldpgraph::testing::Body;
using ldpgraph::testing::SendReport;
using nlohmann::json;

namespace {

// Every user of a graph of `n` reports RR at `epsilon`: about n/2 noisy
// neighbours each at a low epsilon, whatever her true ones.
void ReportRrGraph(AdminDaemon& d, std::uint64_t graph, std::uint32_t n, double epsilon) {
  ldpgraph::GraphConfig config;
  config.graph_id = graph;
  config.num_users = n;
  config.edges.mechanism = ldpgraph::EdgeMechanism::kRr;
  config.edges.epsilon = epsilon;
  config.features.enabled = true;
  config.features.params.dims = 4;
  config.features.params.epsilon = 2;
  config.label.enabled = true;
  config.label.classes = 2;
  config.label.epsilon = 2;
  REQUIRE(d.Admin("POST", "/v1/admin/graphs", ldpgraph::GraphConfigToJson(config)).status == 201);
  auto builder = ldpgraph::ReportBuilder::Create(config);
  REQUIRE(builder.ok());
  ldpgraph::SeededRandomSource rng(graph);
  for (std::uint32_t u = 0; u < n; ++u) SendReport(d, **builder, graph, u, {(u + 1) % n}, {0.2, 0.4, 0.6, 0.8}, rng);
}

}  // namespace

TEST_CASE("MemoryBudget.WorkThatCannotFitTheMemoryBudgetIsRefusedBeforeItStarts") {
  ldpgraph::testing::DaemonSettings settings;
  settings.limits += "memory_budget_mb = 1024\ngw_max_nodes = 2000\n";
  AdminDaemon d(settings);

  // The probe's held graph: 100,000 nodes, 2^24 feature columns, 10^4
  // entries. It uploads; a GAP job on it would hold its 2^24 x 16 first
  // layer with gradient and Adam's moments (GBs): refused, nothing queued.
  json wide = {{"num_nodes", 100000}, {"classes", 3}, {"feature_dims", 1 << 24}};
  json edges = json::array(), features = json::array(), labels = json::array();
  for (int u = 0; u + 1 < 100000; u += 2) edges.push_back({u, u + 1});
  for (int i = 0; i < 10000; ++i) features.push_back({i * 10, (i * 7919) % (1 << 24), 1.0});
  for (int u = 0; u < 100000; ++u) labels.push_back(u % 3);
  wide["edges"] = edges;
  wide["features"] = features;
  wide["labels"] = labels;
  REQUIRE(d.Admin("PUT", "/v1/admin/held-graphs/1", wide.dump()).status == 201);
  const json job = {{"task", "gap"}, {"held_graph", 1}, {"epsilon", 8}};
  const auto refused = d.Admin("POST", "/v1/admin/jobs", job.dump());
  INFO(refused.body);
  CHECK(refused.status == 422);
  CHECK(Body(refused)["error"] == "over_memory_budget");
  CHECK(Body(refused)["message"].get<std::string>().find("above the daemon's memory budget of 1.0 GB") !=
        std::string::npos);
  CHECK(Body(d.Admin("GET", "/v1/admin/jobs"))["jobs"].empty());

  // GW between embedding graphs past gw_max_nodes: 422 naming the limit,
  // before anything is loaded.
  for (int id : {1, 2}) {
    REQUIRE(d.Admin("POST", "/v1/admin/graphs",
                    json{{"graph_id", id}, {"num_users", 30000}, {"embedding", {{"dims", 1}, {"epsilon", 4}}}}.dump())
                .status == 201);
  }
  REQUIRE(d.Admin("POST", "/v1/admin/graphs",
                  json{{"graph_id", 3}, {"num_users", 50}, {"embedding", {{"dims", 1}, {"epsilon", 4}}}}.dump())
              .status == 201);
  const auto pair = d.Admin("POST", "/v1/admin/gw", json{{"a", 1}, {"b", 2}}.dump());
  INFO(pair.body);
  CHECK(pair.status == 422);
  CHECK(Body(pair)["error"] == "too_large");
  CHECK(Body(pair)["message"].get<std::string>().find("at most 2000 ([limits] gw_max_nodes)") != std::string::npos);
  CHECK(d.Admin("POST", "/v1/admin/gw/nearest", json{{"graph", 2}}.dump()).status == 422);
  // A small graph is still answered (it has no report yet: 409), not held up by the large ones.
  CHECK(d.Admin("POST", "/v1/admin/gw/nearest", json{{"graph", 3}}.dump()).status == 409);
  CHECK(d.Admin("GET", "/healthz").status == 200);
}

TEST_CASE("MemoryBudget.UploadsAndPredictionsLeaseTheirMemoryFromTheBudget") {
  ldpgraph::testing::DaemonSettings settings;
  settings.limits += "memory_budget_mb = 64\n";
  AdminDaemon d(settings);
  // A node model of a graph of 20,000 users (a few hundred reported),
  // trained under a budget of 64 MB. Then the daemon restarts with 4 MB:
  // predicting assembles and runs the model over every user, about 9 MB,
  // refused with both figures.
  const json create = {{"graph_id", 7},
                       {"num_users", 20000},
                       {"edges", {{"mechanism", "dprr"}, {"epsilon", 2.0}}},
                       {"features", {{"dims", 4}, {"epsilon", 2.0}}},
                       {"label", {{"classes", 2}, {"epsilon", 2.0}}}};
  REQUIRE(d.Admin("POST", "/v1/admin/graphs", create.dump()).status == 201);
  auto config = ldpgraph::GraphConfigFromJson(d.Call("GET", "/v1/graphs/7", "", "").body);
  REQUIRE(config.ok());
  auto builder = ldpgraph::ReportBuilder::Create(*config);
  REQUIRE(builder.ok());
  ldpgraph::SeededRandomSource rng(3);
  for (std::uint32_t u = 0; u < 300; ++u) {
    SendReport(d, **builder, 7, u, {(u + 1) % 300, (u + 7) % 300}, std::vector<double>(4, u % 2 ? 0.8 : 0.2), rng);
  }
  const auto started = d.Admin("POST", "/v1/admin/jobs", json{{"task", "node"}, {"graph", 7}, {"epochs", 3}}.dump());
  REQUIRE_MESSAGE(started.status == 202, started.body);
  const json done = d.Wait(Body(started)["job_id"].get<std::uint64_t>());
  REQUIRE_MESSAGE(done["state"] == "succeeded", done.dump());
  d.process.Stop();
  std::string& limits = d.process.settings().limits;
  limits.replace(limits.find("memory_budget_mb = 64"), std::string("memory_budget_mb = 64").size(),
                 "memory_budget_mb = 4");
  d.Start();
  const std::string metrics = d.Admin("GET", "/metrics").body;
  CHECK(metrics.find("ldpgraph_memory_budget_bytes 4194304\n") != std::string::npos);

  // An upload holds about 13 bytes per byte of body while it is read and parsed: one
  // of more than 512 KB cannot fit 4 MB. Refused before it is parsed, nothing stored.
  const std::string big = CommunitiesUpload(6000).dump();
  REQUIRE(big.size() > (std::size_t{1} << 19));
  const auto refused = d.Admin("PUT", "/v1/admin/held-graphs/1", big);
  INFO(refused.body);
  CHECK(refused.status == 422);
  CHECK(Body(refused)["error"] == "over_memory_budget");
  CHECK(Body(refused)["message"].get<std::string>().find("this upload needs about") != std::string::npos);
  CHECK(Body(d.Admin("GET", "/v1/admin/held-graphs"))["held_graphs"].empty());
  CHECK(d.Admin("PUT", "/v1/admin/held-graphs/1", CommunitiesUpload(100).dump()).status == 201);

  const auto predicted = d.Admin("POST", "/v1/admin/models/" + done["model_version"].dump() + "/predict",
                                 json{{"nodes", {0, 1}}}.dump());
  INFO(predicted.body);
  CHECK(predicted.status == 422);
  CHECK(Body(predicted)["error"] == "over_memory_budget");
  CHECK(Body(predicted)["message"].get<std::string>().find("this prediction needs about 9 MB, above the daemon's "
                                                           "memory budget of 4 MB") != std::string::npos);
  // Every lease was given back.
  CHECK(d.Admin("GET", "/metrics").body.find("ldpgraph_memory_leased_bytes 0\n") != std::string::npos);
}

TEST_CASE("MemoryBudget.EstimatesCountTheEdgesOfADenseGraphAndTrainingIsOnTheBudget") {
  ldpgraph::testing::DaemonSettings settings;
  settings.limits += "memory_budget_mb = 64\n";
  AdminDaemon d(settings);
  ReportRrGraph(d, 1, 600, 0.01);  // about 300 noisy neighbours a user
  const auto trained = d.Admin("POST", "/v1/admin/jobs", R"({"task": "node", "graph": 1, "epochs": 2})");
  REQUIRE_MESSAGE(trained.status == 202, trained.body);
  const json done = d.Wait(Body(trained)["job_id"].get<std::uint64_t>());
  REQUIRE_MESSAGE(done["state"] == "succeeded", done.dump());
  const std::uint64_t version = done["model_version"];

  // The same daemon with a budget of 3 MB: the graph's edges alone are
  // estimated above it (before: a few hundred KB, and the work ran).
  d.process.Stop();
  std::string& limits = d.process.settings().limits;
  limits.replace(limits.find("memory_budget_mb = 64"), std::string("memory_budget_mb = 64").size(),
                 "memory_budget_mb = 3");
  d.Start();
  auto tokens = ldpgraph::TokenAuthority::Create(ldpgraph::testing::DaemonProcess::kSecret);
  REQUIRE(tokens.ok());
  const auto result = d.client->Request("GET", "/v1/graphs/1/result", "", "", tokens->Issue(1, 7));
  REQUIRE(result.ok());
  INFO(result->body);
  CHECK(result->status == 422);
  CHECK(json::parse(result->body)["error"] == "over_memory_budget");
  const auto predicted =
      d.Admin("POST", "/v1/admin/models/" + std::to_string(version) + "/predict", R"({"nodes": [0, 1, 2]})");
  INFO(predicted.body);
  CHECK(predicted.status == 422);
  CHECK(Body(predicted)["error"] == "over_memory_budget");
  const auto retrain = d.Admin("POST", "/v1/admin/jobs", R"({"task": "node", "graph": 1, "epochs": 2})");
  INFO(retrain.body);
  CHECK(retrain.status == 422);
  CHECK(Body(retrain)["message"].get<std::string>().find("this training job") != std::string::npos);

  // 2^32 - 1 users: refused at creation; 2^30 users and a few reports: the
  // job is refused at submission, nothing queued.
  const auto huge = d.Admin("POST", "/v1/admin/graphs",
                            R"({"graph_id": 2, "num_users": 4294967295, "edges": {"mechanism": "dprr", "epsilon": 1},
                                "features": {"dims": 4, "epsilon": 2}, "label": {"classes": 2, "epsilon": 2}})");
  CHECK(huge.status == 400);
  CHECK(Body(huge)["message"].get<std::string>().find("num_users must be at most 1073741824") != std::string::npos);
  REQUIRE(d.Admin("POST", "/v1/admin/graphs",
                  R"({"graph_id": 3, "num_users": 1073741824, "edges": {"mechanism": "dprr", "epsilon": 1},
                      "features": {"dims": 4, "epsilon": 2}, "label": {"classes": 2, "epsilon": 2}})")
              .status == 201);
  const auto wide = d.Admin("POST", "/v1/admin/jobs", R"({"task": "node", "graph": 3})");
  INFO(wide.body);
  CHECK(wide.status == 422);
  CHECK(Body(wide)["error"] == "over_memory_budget");
  const auto jobs = Body(d.Admin("GET", "/v1/admin/jobs"))["jobs"];
  CHECK(jobs.size() == 1);  // the first, trained one
}

namespace {

// The daemon's peak resident memory so far (VmHWM), in MB.
double PeakResidentMb(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024;
  }
  return -1;
}

}  // namespace

// Issue 66, defect 9: eight concurrent uploads were each refused, but only
// after the daemon had read their bodies (781 MB resident for 8 x 100 MB).
// An upload is decided from its Content-Length now, before its body is read.

TEST_CASE("MemoryBudget.UploadsAreDecidedBeforeTheirBodiesAreRead") {
  ldpgraph::testing::DaemonSettings settings;
  settings.limits += "memory_budget_mb = 16\n";
  AdminDaemon d(settings);
  const double before = PeakResidentMb(d.process.pid());
  REQUIRE(before > 0);
  // 6 MB each (within the 8 MiB a refused request's rest is drained, so the
  // client reads its answer): 78 MB estimated, never fits 16 MB.
  const std::string body = "{\"num_nodes\": 2, \"edges\": [" + std::string(6 << 20, ' ') + "]}";
  std::vector<std::thread> uploads;
  std::atomic<int> refused{0}, cut{0};
  for (int i = 0; i < 8; ++i) {
    uploads.emplace_back([&, i] {
      auto client = ldpgraph::transport::HttpsClient::Create(d.process.endpoint());
      REQUIRE(client.ok());
      auto answer = (*client)->Request("PUT", "/v1/admin/held-graphs/" + std::to_string(10 + i), "application/json",
                                       body, ldpgraph::testing::DaemonProcess::kAdminToken);
      if (!answer.ok()) {
        ++cut;  // the connection closed under a client still sending
        return;
      }
      if (answer->status == 422 && answer->body.find("over_memory_budget") != std::string::npos) ++refused;
    });
  }
  for (auto& t : uploads) t.join();
  const double after = PeakResidentMb(d.process.pid());
  MESSAGE("uploads=8 body_mb=6 refused=" << refused.load() << " cut=" << cut.load() << " daemon_peak_growth_mb="
                                         << after - before);
  CHECK(refused.load() + cut.load() == 8);
  CHECK(refused.load() >= 1);
  CHECK(after - before < 24);  // reading the bodies took 48 MB and more
  CHECK(Body(d.Admin("GET", "/v1/admin/held-graphs"))["held_graphs"].empty());
  CHECK(d.Admin("GET", "/metrics").body.find("ldpgraph_memory_leased_bytes 0\n") != std::string::npos);
}
