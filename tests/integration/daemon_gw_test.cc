// GW-LDP on a real ldpgraphd: every client holds one graph, learns node
// embeddings with the others (FedAvg, simulated in this process), encodes
// them on the device (ReportBuilder::BuildEmbedding), remembers the report
// in its budget ledger and uploads it over TLS (the SDK's Uploader). The
// daemon then answers the GW discrepancy between two stored graphs and the
// nearest graphs of one, the same values an in-process computation on the
// same reports gives, across a restart. Every bad request is refused with
// its reason.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "gw/federated_embeddings.h"
#include "gw/graph_space.h"
#include "gw/gromov_wasserstein.h"
#include "gw/pairwise_gw.h"
#include "gw/private_embedding.h"
#include "ldpgraph/budget_ledger.h"
#include "ldpgraph/report_builder.h"
#include "ldpgraph/transport/uploader.h"
#include "ldpgraph/wire_format.h"
#include "support/admin_daemon.h"
#include "support/graph_fixtures.h"
#include "support/run_command.h"

namespace lt = ldpgraph::transport;
using nlohmann::json;
using namespace ldpgraph;

namespace {

using Daemon = ldpgraph::testing::AdminDaemon;

constexpr std::uint64_t kFirstGraph = 100;
constexpr double kEpsilon = 40;

using ldpgraph::testing::PathsAndStars;

std::string Token(Daemon& d, std::uint64_t graph) {
  auto issued = d.Admin("POST", "/v1/admin/graphs/" + std::to_string(graph) + "/tokens", json{{"users", {0}}}.dump());
  REQUIRE_MESSAGE(issued.status == 200, issued.body);
  return json::parse(issued.body)["tokens"][0]["token"];
}

// The server's view of a report, computed here: rectified embeddings.
GraphSpace SpaceOf(const std::vector<std::uint8_t>& bytes) {
  auto report = DecodeReport(bytes.data(), bytes.size());
  REQUIRE(report.ok());
  EmbeddingParams p;
  p.nodes = report->num_users;
  p.dims = report->embedding.dims;
  p.epsilon = report->embedding.epsilon;
  auto h = RectifyEmbedding(p, report->embedding.rows);
  REQUIRE(h.ok());
  return EmbeddingSpace(*h);
}

double LocalGw(const GraphSpace& a, const GraphSpace& b) {
  auto r = SpaceGw(a, b, 0.5, GwOptions::ProductStartOnly());
  REQUIRE(r.ok());
  return r->value;
}

}  // namespace

TEST_CASE("DaemonGw.ClientsUploadEncodedEmbeddingsAndTheDaemonComparesThem") {
  Daemon d;
  const GraphDataset ds = PathsAndStars(12);
  std::vector<std::uint32_t> all(ds.graphs.size());
  for (std::uint32_t g = 0; g < all.size(); ++g) all[g] = g;
  FederatedEmbeddingOptions fo;
  fo.rounds = 15;
  fo.clients = 3;
  auto trained = TrainFederatedEmbeddings(ds, all, {}, fo);
  REQUIRE(trained.ok());

  // The admin sets up one embedding graph per client, with its class.
  for (std::size_t g = 0; g < ds.graphs.size(); ++g) {
    const json config = {{"graph_id", kFirstGraph + g},
                         {"num_users", ds.graphs[g].num_nodes()},
                         {"embedding", {{"dims", 1}, {"epsilon", kEpsilon}}}};
    auto created = d.Admin("POST", "/v1/admin/graphs", config.dump());
    REQUIRE_MESSAGE(created.status == 201, created.body);
    auto labelled = d.Admin("PUT", "/v1/admin/graphs/" + std::to_string(kFirstGraph + g) + "/label",
                            json{{"label", ds.labels[g]}}.dump());
    REQUIRE_MESSAGE(labelled.status == 200, labelled.body);
  }
  // A graph whose owner never reports, and one of users' friend lists.
  REQUIRE(d.Admin("POST", "/v1/admin/graphs",
                  json{{"graph_id", 90}, {"num_users", 6}, {"embedding", {{"dims", 1}, {"epsilon", kEpsilon}}}}.dump())
              .status == 201);
  REQUIRE(d.Admin("POST", "/v1/admin/graphs",
                  json{{"graph_id", 91}, {"num_users", 6}, {"edges", {{"mechanism", "none"}}}}.dump())
              .status == 201);

  // Every client: the graph's configuration from the daemon, the report
  // made once and kept in its ledger, the upload over TLS.
  lt::UploaderOptions uo;
  uo.server = d.process.endpoint();
  auto uploader = lt::Uploader::Create(uo);
  REQUIRE(uploader.ok());
  ldpgraph::testing::TempDir ledgers;
  std::vector<std::vector<std::uint8_t>> sent(ds.graphs.size());
  SeededRandomSource rng(17);
  for (std::size_t g = 0; g < ds.graphs.size(); ++g) {
    const std::uint64_t id = kFirstGraph + g;
    auto ledger = BudgetLedger::Open(FileLedgerStorage(ledgers.path() + "/client-" + std::to_string(g)), 100);
    REQUIRE(ledger.ok());
    auto config = (*uploader)->FetchGraphConfig(id);
    REQUIRE(config.ok());
    auto builder = ReportBuilder::Create(*config);
    REQUIRE(builder.ok());
    const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> h = trained->embeddings[g];
    int made = 0;
    auto make = [&]() -> Result<BudgetLedger::NewReport> {
      ++made;
      auto report = (*builder)->BuildEmbedding(Span<const double>(h.data(), static_cast<std::size_t>(h.size())),
                                               false, 0, rng);
      if (!report.ok()) return report.status();
      BudgetLedger::NewReport out;
      LDPGRAPH_RETURN_IF_ERROR(EncodeReport(*report, &out.bytes));
      out.epsilon = ReportEpsilon(*report);
      return out;
    };
    auto bytes = (*ledger)->ReportOnce(id, make);
    REQUIRE(bytes.ok());
    CHECK((*ledger)->spent() == kEpsilon);
    const std::string token = Token(d, id);
    auto outcome = (*uploader)->Send(token, *bytes);
    REQUIRE(outcome.ok());
    REQUIRE_MESSAGE(outcome->delivered, outcome->body);
    // Asked again (an app restart, a retry): the same bytes, nothing spent,
    // and the daemon acknowledges the duplicate.
    auto again = (*ledger)->ReportOnce(id, make);
    REQUIRE(again.ok());
    CHECK(*again == *bytes);
    CHECK(made == 1);
    CHECK((*ledger)->spent() == kEpsilon);
    auto duplicate = (*uploader)->Send(token, *again);
    REQUIRE(duplicate.ok());
    CHECK(duplicate->delivered);
    sent[g] = *bytes;
  }

  // GW between two stored graphs: the value this process computes from the
  // same reports.
  auto pair = d.Admin("POST", "/v1/admin/gw", json{{"a", kFirstGraph}, {"b", kFirstGraph + 5}}.dump());
  REQUIRE_MESSAGE(pair.status == 200, pair.body);
  const double expected = LocalGw(SpaceOf(sent[0]), SpaceOf(sent[5]));
  CHECK(json::parse(pair.body)["gw"].get<double>() == doctest::Approx(expected).epsilon(1e-12));
  CHECK(json::parse(pair.body)["nodes_b"] == ds.graphs[5].num_nodes());

  // The nearest graphs of one, in order, with their labels and a k-NN vote.
  auto nearest = d.Admin("POST", "/v1/admin/gw/nearest", json{{"graph", kFirstGraph + 2}, {"k", 3}}.dump());
  REQUIRE_MESSAGE(nearest.status == 200, nearest.body);
  const json n = json::parse(nearest.body);
  CHECK(n["compared"] == ds.graphs.size() - 1);  // graph 90 has no report; 91 is no embedding graph
  std::vector<std::pair<double, std::uint64_t>> local;
  for (std::size_t g = 0; g < ds.graphs.size(); ++g) {
    if (g != 2) local.emplace_back(LocalGw(SpaceOf(sent[2]), SpaceOf(sent[g])), kFirstGraph + g);
  }
  std::sort(local.begin(), local.end());
  REQUIRE(n["nearest"].size() == 3);
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(n["nearest"][i]["graph"] == local[i].second);
    CHECK(n["nearest"][i]["gw"].get<double>() == doctest::Approx(local[i].first).epsilon(1e-12));
    CHECK(n["nearest"][i]["label"] == ds.labels[local[i].second - kFirstGraph]);
  }
  CHECK(n.contains("predicted_label"));

  // The same from the command line.
  const std::string cli = std::string("LDPGRAPH_ADMIN_TOKEN=") + ldpgraph::testing::DaemonProcess::kAdminToken + " " +
                          LDPGRAPH_CLI + " daemon ";
  const std::string where = " --daemon https://127.0.0.1:" + std::to_string(d.process.port()) + " --ca " +
                            d.process.pki().ca_certificate;
  const auto gw = ldpgraph::testing::RunCommand(cli + "gw --graph " + std::to_string(kFirstGraph) +
                                                           " --to " + std::to_string(kFirstGraph + 5) + where +
                                                           " --timeout 60 2>&1");
  INFO(gw.output);
  CHECK(gw.status == 0);
  CHECK(gw.output.find("gw=") != std::string::npos);
  const auto bad = ldpgraph::testing::RunCommand(cli + "nearest --graph " + std::to_string(kFirstGraph) +
                                                             where + " --timeout 0 2>&1");
  INFO(bad.output);
  CHECK(bad.status == 2);
  CHECK(bad.output.find("--timeout must be a whole number of seconds") != std::string::npos);
  const auto near = ldpgraph::testing::RunCommand(cli + "nearest --graph " + std::to_string(kFirstGraph + 2) +
                                                  " --k 3" + where + " 2>&1");
  INFO(near.output);
  CHECK(near.status == 0);
  CHECK(near.output.find("neighbour=" + std::to_string(local[0].second) + " ") != std::string::npos);
  CHECK(near.output.find("predicted_label=") != std::string::npos);

  // Every GW query above went through the query worker.
  const std::string metrics = d.Call("GET", "/metrics", "", "").body;
  CHECK(metrics.find("ldpgraph_admin_queries_waiting 0\n") != std::string::npos);
  CHECK(metrics.find("ldpgraph_admin_queries_total{outcome=\"answered\"} 0\n") == std::string::npos);
  CHECK(metrics.find("ldpgraph_admin_queries_total{outcome=\"refused\"} 0\n") != std::string::npos);

  // Refusals, each with its reason; nothing stored changes.
  auto code = [&](const std::string& path, const json& body) {
    auto a = d.Admin("POST", path, body.dump());
    return std::make_pair(a.status, a.status >= 400 ? json::parse(a.body)["error"].get<std::string>() : "");
  };
  CHECK(code("/v1/admin/gw", {{"a", kFirstGraph}, {"b", 999}}) == std::make_pair(404, std::string("unknown_graph")));
  CHECK(code("/v1/admin/gw", {{"a", kFirstGraph}, {"b", 90}}) == std::make_pair(409, std::string("no_embeddings")));
  CHECK(code("/v1/admin/gw", {{"a", 91}, {"b", kFirstGraph}}) ==
        std::make_pair(409, std::string("not_an_embedding_graph")));
  CHECK(code("/v1/admin/gw", {{"a", kFirstGraph}, {"b", kFirstGraph + 1}, {"alpha", 2}}).first == 400);
  CHECK(code("/v1/admin/gw", {{"a", kFirstGraph}}).first == 400);
  CHECK(code("/v1/admin/gw", {{"a", kFirstGraph}, {"b", kFirstGraph + 1}, {"beta", 1}}).first == 400);
  CHECK(code("/v1/admin/gw/nearest", {{"graph", kFirstGraph}, {"k", 0}}).first == 400);
  CHECK(d.Admin("GET", "/v1/admin/gw").status == 405);
  // No GNN trains on an embedding graph: it holds no friend lists.
  CHECK(code("/v1/admin/jobs", {{"task", "graph"}, {"graphs", {kFirstGraph, kFirstGraph + 1}}}) ==
        std::make_pair(422, std::string("embedding_graph")));
  CHECK(code("/v1/admin/jobs", {{"task", "node"}, {"graph", kFirstGraph}}) ==
        std::make_pair(422, std::string("embedding_graph")));
  CHECK(d.Call("POST", "/v1/admin/gw", json{{"a", kFirstGraph}, {"b", kFirstGraph + 1}}.dump(), "").status == 401);

  // A report that does not fit its graph: another epsilon, or embeddings
  // sent to a graph of users' reports.
  {
    GraphConfig other;
    other.graph_id = 90;
    other.num_users = 6;
    other.embedding.enabled = true;
    other.embedding.dims = 1;
    other.embedding.epsilon = kEpsilon / 2;
    auto builder = ReportBuilder::Create(other);
    REQUIRE_MESSAGE(builder.ok(), builder.status().ToString());
    std::vector<double> h(6, 0.5);
    auto report = (*builder)->BuildEmbedding(h, false, 0, rng);
    REQUIRE(report.ok());
    std::vector<std::uint8_t> bytes;
    REQUIRE(EncodeReport(*report, &bytes).ok());
    auto refused = (*uploader)->Send(Token(d, 90), bytes);
    REQUIRE(refused.ok());
    CHECK_FALSE(refused->delivered);
    CHECK(refused->body.find("embedding epsilon") != std::string::npos);
    report->graph_id = 91;
    bytes.clear();
    REQUIRE(EncodeReport(*report, &bytes).ok());
    refused = (*uploader)->Send(Token(d, 91), bytes);
    REQUIRE(refused.ok());
    CHECK_FALSE(refused->delivered);
    CHECK(refused->body.find("not embeddings") != std::string::npos);
  }
  CHECK(code("/v1/admin/gw", {{"a", kFirstGraph}, {"b", 90}}).second == "no_embeddings");

  // After a restart: the same answers from the stored reports.
  d.process.Stop();
  d.Start();
  auto after = d.Admin("POST", "/v1/admin/gw", json{{"a", kFirstGraph}, {"b", kFirstGraph + 5}}.dump());
  REQUIRE(after.status == 200);
  CHECK(json::parse(after.body)["gw"].get<double>() == doctest::Approx(expected).epsilon(1e-12));
}
