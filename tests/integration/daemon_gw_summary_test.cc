// GW-LDP's summary encoder on a real ldpgraphd: a fleet of 300 graph owners
// (two kinds of community, generated) learn node embeddings together
// (FedAvg, simulated here), and each sends her graph as one cell of the
// public grid through the SDK: the graph's configuration fetched from the
// daemon, the report made once in her budget ledger, the upload over TLS.
// The daemon's k nearest labelled graphs of every unlabelled one then vote
// the class `ldpgraph gw --encoder summary`'s pipeline gives on the same
// reports (its denoiser, its pairwise GW, its k-NN). Bad requests and
// reports of the wrong kind are refused with their reason.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "dataset/generators.h"
#include "gw/federated_embeddings.h"
#include "gw/kernel_svm.h"
#include "gw/pairwise_gw.h"
#include "gw/private_summary.h"
#include "ldpgraph/budget_ledger.h"
#include "ldpgraph/report_builder.h"
#include "ldpgraph/transport/uploader.h"
#include "ldpgraph/wire_format.h"
#include "support/admin_daemon.h"
#include "support/temp_dir.h"

namespace lt = ldpgraph::transport;
using nlohmann::json;
using namespace ldpgraph;

namespace {

using Daemon = ldpgraph::testing::AdminDaemon;

constexpr std::uint64_t kFirstGraph = 1000;
constexpr std::uint32_t kGraphs = 300;
constexpr double kEpsilon = 8;
constexpr int kNeighbours = 5;

json SummaryPolicy(std::uint64_t id) {
  return {{"graph_id", id},
          {"num_users", 2},  // nominal: the owner's size stays on her device
          {"embedding", {{"dims", 1}, {"epsilon", kEpsilon}, {"encoding", "summary"},
                         {"min_nodes", 20}, {"max_nodes", 80}}}};
}

std::string Token(Daemon& d, std::uint64_t graph) {
  auto issued = d.Admin("POST", "/v1/admin/graphs/" + std::to_string(graph) + "/tokens", json{{"users", {0}}}.dump());
  REQUIRE_MESSAGE(issued.status == 200, issued.body);
  return json::parse(issued.body)["tokens"][0]["token"];
}

bool Labelled(std::uint32_t g) { return g % 3 != 0; }  // a third are the graphs to classify

}  // namespace

TEST_CASE("DaemonGwSummary.AFleetSendsOneCellEachAndNearestVotesAsTheGwPipeline") {
  SyntheticSpec spec;
  spec.graphs = kGraphs;
  spec.min_nodes = 20;
  spec.max_nodes = 80;
  SeededRandomSource data_rng(5);
  const GraphDataset ds = SyntheticCommunities(spec, data_rng);
  std::vector<std::uint32_t> train, test;
  for (std::uint32_t g = 0; g < kGraphs; ++g) (Labelled(g) ? train : test).push_back(g);
  FederatedEmbeddingOptions fo;
  fo.rounds = 10;
  fo.clients = 5;
  auto trained = TrainFederatedEmbeddings(ds, train, test, fo);
  REQUIRE(trained.ok());

  Daemon d;
  for (std::uint32_t g = 0; g < kGraphs; ++g) {
    auto created = d.Admin("POST", "/v1/admin/graphs", SummaryPolicy(kFirstGraph + g).dump());
    REQUIRE_MESSAGE(created.status == 201, created.body);
    if (!Labelled(g)) continue;
    auto labelled = d.Admin("PUT", "/v1/admin/graphs/" + std::to_string(kFirstGraph + g) + "/label",
                            json{{"label", ds.labels[g]}}.dump());
    REQUIRE_MESSAGE(labelled.status == 200, labelled.body);
  }
  // The served policy names its grid: ForEpsilon's 8 x 8 at epsilon 8.
  const json served = json::parse(d.Call("GET", "/v1/graphs/" + std::to_string(kFirstGraph), "", "").body);
  CHECK(served["embedding"]["encoding"] == "summary");
  CHECK(served["embedding"]["value_bins"] == 8);
  CHECK(served["embedding"]["size_bins"] == 8);

  lt::UploaderOptions uo;
  uo.server = d.process.endpoint();
  auto uploader = lt::Uploader::Create(uo);
  REQUIRE(uploader.ok());
  ldpgraph::testing::TempDir ledgers;
  std::vector<std::uint32_t> cells(kGraphs);
  for (std::uint32_t g = 0; g < kGraphs; ++g) {
    const std::uint64_t id = kFirstGraph + g;
    auto ledger = BudgetLedger::Open(FileLedgerStorage(ledgers.path() + "/owner-" + std::to_string(g)), 10);
    REQUIRE(ledger.ok());
    auto config = (*uploader)->FetchGraphConfig(id);
    REQUIRE(config.ok());
    auto builder = ReportBuilder::Create(*config);
    REQUIRE(builder.ok());
    const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> h = trained->embeddings[g];
    SeededRandomSource rng(7000 + g);  // each owner's own randomness
    auto bytes = (*ledger)->ReportOnce(id, [&]() -> Result<BudgetLedger::NewReport> {
      auto report = (*builder)->BuildEmbedding(Span<const double>(h.data(), static_cast<std::size_t>(h.size())),
                                               false, 0, rng);
      if (!report.ok()) return report.status();
      BudgetLedger::NewReport out;
      LDPGRAPH_RETURN_IF_ERROR(EncodeReport(*report, &out.bytes));
      out.epsilon = ReportEpsilon(*report);
      return out;
    });
    REQUIRE(bytes.ok());
    CHECK((*ledger)->spent() == kEpsilon);
    auto decoded = DecodeReport(bytes->data(), bytes->size());
    REQUIRE(decoded.ok());
    REQUIRE(decoded->has_summary);
    // One cell, whatever the graph's size: the report's length tells nothing.
    CHECK(bytes->size() < 64);
    cells[g] = decoded->summary.cell;
    auto outcome = (*uploader)->Send(Token(d, id), *bytes);
    REQUIRE(outcome.ok());
    REQUIRE_MESSAGE(outcome->delivered, outcome->body);
  }

  // `ldpgraph gw --encoder summary` on the same reports: every report
  // denoised together, pairwise fused GW, k-NN over the labelled graphs.
  auto encoder = GraphSummaryEncoder::Create(GraphSummaryParams::ForEpsilon(1, kEpsilon, 20, 80));
  REQUIRE(encoder.ok());
  auto spaces = SummarySpaces(*encoder, cells);
  REQUIRE(spaces.ok());
  auto distances = PairwiseGw(*spaces, PairwiseGwOptions{});
  REQUIRE(distances.ok());
  std::vector<std::uint32_t> labels(ds.labels.begin(), ds.labels.end());
  std::size_t agree = 0, right = 0;
  for (std::uint32_t t : test) {
    auto nearest = d.Admin("POST", "/v1/admin/gw/nearest",
                           json{{"graph", kFirstGraph + t}, {"k", kNeighbours}, {"among", "labelled"}}.dump());
    REQUIRE_MESSAGE(nearest.status == 200, nearest.body);
    const json n = json::parse(nearest.body);
    CHECK(n["encoding"] == "summary");
    CHECK(n["compared"] == train.size());
    REQUIRE(n.contains("predicted_label"));
    const std::uint32_t expected = KnnPredict(*distances, labels, train, t, kNeighbours);
    agree += n["predicted_label"].get<std::uint32_t>() == expected;
    right += expected == labels[t];
  }
  INFO("k-NN accuracy on the summaries: " << static_cast<double>(right) / test.size());
  CHECK(agree == test.size());
  // The summaries carry the class: far above a coin.
  CHECK(right > 0.7 * test.size());

  // A pair: the value the pipeline's matrix holds.
  auto pair = d.Admin("POST", "/v1/admin/gw", json{{"a", kFirstGraph + 1}, {"b", kFirstGraph + 2}}.dump());
  REQUIRE_MESSAGE(pair.status == 200, pair.body);
  CHECK(json::parse(pair.body)["gw"].get<double>() == (*distances)(1, 2));
  CHECK(json::parse(pair.body)["denoised_with"] == kGraphs);
}

TEST_CASE("DaemonGwSummary.ReportsOfTheWrongKindAndBadQueriesAreRefused") {
  Daemon d;
  REQUIRE(d.Admin("POST", "/v1/admin/graphs", SummaryPolicy(1).dump()).status == 201);
  json rows = SummaryPolicy(2);
  rows["num_users"] = 2;
  rows["embedding"] = {{"dims", 1}, {"epsilon", kEpsilon}};
  REQUIRE(d.Admin("POST", "/v1/admin/graphs", rows.dump()).status == 201);
  json other_grid = SummaryPolicy(3);
  other_grid["embedding"]["max_nodes"] = 500;
  REQUIRE(d.Admin("POST", "/v1/admin/graphs", other_grid.dump()).status == 201);

  // Bad policies name their field.
  json bad = SummaryPolicy(4);
  bad["embedding"]["encoding"] = "zip";
  auto refused = d.Admin("POST", "/v1/admin/graphs", bad.dump());
  CHECK(refused.status == 400);
  CHECK(refused.body.find("embedding.encoding") != std::string::npos);
  bad = SummaryPolicy(4);
  bad["embedding"]["value_bins"] = 300;  // with 3 columns: 300^3 x 8 cells, past 65536
  bad["embedding"]["dims"] = 3;
  refused = d.Admin("POST", "/v1/admin/graphs", bad.dump());
  CHECK(refused.status == 400);
  CHECK(refused.body.find("65536 cells") != std::string::npos);
  json multibit_grid = rows;
  multibit_grid["graph_id"] = 5;
  multibit_grid["embedding"]["size_bins"] = 4;
  refused = d.Admin("POST", "/v1/admin/graphs", multibit_grid.dump());
  CHECK(refused.status == 400);
  CHECK(refused.body.find("summary encoding only") != std::string::npos);

  // Reports made on another graph's policy: a summary to the rows graph,
  // rows to the summary graph, a summary on another grid. Each is refused
  // with its reason and nothing is stored.
  lt::UploaderOptions uo;
  uo.server = d.process.endpoint();
  auto uploader = lt::Uploader::Create(uo);
  REQUIRE(uploader.ok());
  SeededRandomSource rng(3);
  const auto report_for = [&](std::uint64_t made_on, std::uint64_t sent_to, std::uint32_t nodes) {
    auto config = (*uploader)->FetchGraphConfig(made_on);
    REQUIRE(config.ok());
    config->graph_id = sent_to;
    auto builder = ReportBuilder::Create(*config);
    REQUIRE(builder.ok());
    const std::vector<double> h(nodes, 0.25);
    auto report = (*builder)->BuildEmbedding(Span<const double>(h.data(), h.size()), false, 0, rng);
    REQUIRE(report.ok());
    std::vector<std::uint8_t> bytes;
    REQUIRE(EncodeReport(*report, &bytes).ok());
    return bytes;
  };
  const auto send = [&](std::uint64_t graph, const std::vector<std::uint8_t>& bytes) {
    auto issued = d.Admin("POST", "/v1/admin/graphs/" + std::to_string(graph) + "/tokens", json{{"users", {0}}}.dump());
    REQUIRE(issued.status == 200);
    auto outcome = (*uploader)->Send(json::parse(issued.body)["tokens"][0]["token"], bytes);
    REQUIRE(outcome.ok());
    return *outcome;
  };
  const auto wrong_kind = send(2, report_for(1, 2, 30));  // n = 2 both: only the kind differs
  CHECK(wrong_kind.http_status == 422);
  CHECK(wrong_kind.body.find("rows, not a summary") != std::string::npos);
  auto rows_to_summary = send(1, report_for(2, 1, 2));
  CHECK(rows_to_summary.http_status == 422);
  CHECK(rows_to_summary.body.find("not rows") != std::string::npos);
  auto stale_grid = send(1, report_for(3, 1, 30));
  CHECK(stale_grid.http_status == 422);
  CHECK(stale_grid.body.find("summary max nodes") != std::string::npos);
  // Nothing stored: graph 1 has no summary to compare.
  auto nothing = d.Admin("POST", "/v1/admin/gw/nearest", json{{"graph", 1}}.dump());
  CHECK(nothing.status == 409);
  CHECK(nothing.body.find("no summary report yet") != std::string::npos);

  // A good report; then queries across encodings and grids, and bad bodies.
  CHECK(send(1, report_for(1, 1, 40)).delivered);
  CHECK(send(3, report_for(3, 3, 40)).delivered);
  auto across = d.Admin("POST", "/v1/admin/gw", json{{"a", 1}, {"b", 2}}.dump());
  CHECK(across.status == 409);
  CHECK(across.body.find("different_encodings") != std::string::npos);
  auto grids = d.Admin("POST", "/v1/admin/gw", json{{"a", 1}, {"b", 3}}.dump());
  CHECK(grids.status == 409);
  CHECK(grids.body.find("different_grids") != std::string::npos);
  auto among = d.Admin("POST", "/v1/admin/gw/nearest", json{{"graph", 1}, {"among", "friends"}}.dump());
  CHECK(among.status == 400);
  CHECK(among.body.find("among") != std::string::npos);
  // Alone on its grid: nothing to compare, an empty answer.
  auto alone = d.Admin("POST", "/v1/admin/gw/nearest", json{{"graph", 1}}.dump());
  REQUIRE_MESSAGE(alone.status == 200, alone.body);
  CHECK(json::parse(alone.body)["compared"] == 0);
}
