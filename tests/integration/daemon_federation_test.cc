// FedCog among real ldpgraphd processes (federation/): three parties on
// loopback, each with its own store, talking over mutual TLS. The model
// they train is the one the same computation gives in one process;
// strangers are refused; a party killed mid-run (ten times) leaves the
// model unchanged or no model, never a corrupt one; a killed coordinator's
// run is reported failed; no party but a run's coordinator can open it
// again or delete it.
#include <doctest/doctest.h>

#include <algorithm>
#include <optional>
#include <filesystem>
#include <map>
#include <sstream>

#include "dataset/graph_dataset.h"
#include "federation/federated_sgc.h"
#include "federation/party_share.h"
#include "federation/share_split.h"
#include "gap/held_graph_dataset.h"
#include "ldpgraph/random_source.h"
#include "ldpgraph/samplers.h"
#include "support/daemon_federation.h"
#include "support/daemon_log.h"
#include "support/sanitizers.h"
#include "support/shared_data.h"

using namespace ldpgraph;
using namespace ldpgraph::testing;
using nlohmann::json;

namespace {

const std::vector<std::string> kNames = {"north", "east", "west"};  // north coordinates

// Planted classes: friends mostly within a class, features that hint at it.
HeldGraphParts PlantedGraph(std::uint32_t n, std::uint64_t seed) {
  SeededRandomSource rng(seed);
  HeldGraphParts g;
  g.num_nodes = n;
  g.classes = 3;
  g.feature_dims = 12;
  for (std::uint32_t u = 0; u < n; ++u) g.labels.push_back(u % 3);
  for (std::uint32_t u = 0; u < n; ++u) {
    for (std::uint32_t v = u + 1; v < n; ++v) {
      if (UniformUnit(rng) < (g.labels[u] == g.labels[v] ? 0.05 : 0.004)) g.edges.emplace_back(u, v);
    }
    for (std::uint64_t k = 0; k < 12; ++k) {
      const double signal = static_cast<std::int64_t>(k % 3) == g.labels[u] ? 0.6 : 0.0;
      g.features.push_back({u, k, UniformUnit(rng) + signal});
    }
  }
  return g;
}

std::vector<int> DealParties(std::uint32_t n, std::uint64_t seed) {
  SeededRandomSource rng(seed);
  std::vector<int> party_of(n);
  for (int& p : party_of) p = static_cast<int>(UniformBelow(rng, 3));
  return party_of;
}

// The same run in this process: the shares as the parties build them, in
// the run's order (names sorted), propagated and trained by the same code.
FederatedSgcRun InProcess(const std::vector<HeldGraphParts>& shares, int steps, const FederatedSgcOptions& o) {
  std::vector<std::string> order = kNames;
  std::sort(order.begin(), order.end());
  std::vector<PartyGraph> graphs;
  std::vector<Matrix> features;
  std::vector<PartyTask> tasks;
  int classes = 0;
  for (const std::string& name : order) {
    const std::size_t i = static_cast<std::size_t>(std::find(kNames.begin(), kNames.end(), name) - kNames.begin());
    Result<HeldGraph> held = MakeHeldGraph(shares[i]);
    REQUIRE(held.ok());
    classes = held->classes;
    Result<PartyShare> share = MakePartyShare(*held, order, name);
    REQUIRE(share.ok());
    tasks.push_back(SplitPartyUsers(*share, name, o.seed, 0.5, 0.25));
    graphs.push_back(share->graph);
    features.push_back(share->features);
  }
  Result<std::vector<Matrix>> propagated = DecoupledPropagate(graphs, features, steps);
  REQUIRE(propagated.ok());
  Result<FederatedSgcRun> run = TrainFederatedSgc(*propagated, tasks, classes, o);
  REQUIRE(run.ok());
  return *run;
}

// Every party holds the run's model, with the same weights as `expected`.
void CheckModels(DaemonFederation& f, std::uint64_t run, const std::vector<Matrix>& expected) {
  for (std::size_t i = 0; i < f.size(); ++i) {
    std::optional<FederatedModel> m = f.Model(i, run);
    REQUIRE_MESSAGE(m.has_value(), "party " << kNames[i] << " holds no model of run " << run);
    REQUIRE(m->weights.size() == 2);
    CHECK((m->weights[0] - expected[0]).cwiseAbs().maxCoeff() <= 1e-6f);
    CHECK((m->weights[1] - expected[1]).cwiseAbs().maxCoeff() <= 1e-6f);
    CHECK(m->party == kNames[i]);
  }
}

// A client of party `to`'s federation listener holding party `as`'s certificate.
std::unique_ptr<transport::HttpsClient> PartyClient(DaemonFederation& f, std::size_t as, std::size_t to) {
  transport::ServerEndpoint e;
  e.host = "127.0.0.1";
  e.port = f.federation_port(to);
  e.ca_file = f.pki().ca_certificate;
  e.client_certificate_file = f.pki().certificates[as];
  e.client_key_file = f.pki().keys[as];
  return transport::HttpsClient::Create(e).value();
}

}  // namespace

TEST_CASE("Federation.ThreeDaemonsOverMutualTlsTrainTheInProcessModel") {
  DaemonFederation f(kNames);
  const HeldGraphParts whole = PlantedGraph(240, 1);
  const std::vector<HeldGraphParts> shares = SplitIntoShares(whole, DealParties(240, 2), kNames).value();
  f.Upload(shares, 5);
  FederatedSgcOptions o;
  o.max_epochs = 60;
  o.seed = 3;
  const std::uint64_t run = f.Start({{"held_graph", 5}, {"epochs", 60}, {"seed", 3}});
  const json status = f.Wait(run);
  REQUIRE_MESSAGE(status["state"] == "succeeded", status.dump());
  const FederatedSgcRun expected = InProcess(shares, 2, o);
  CHECK(status["best_round"] == expected.best_epoch);
  CHECK(status["val_accuracy"].get<double>() == doctest::Approx(expected.val_accuracy));
  CHECK(status["test_accuracy"].get<double>() == doctest::Approx(expected.test_accuracy));
  CHECK(expected.test_accuracy > 0.6);  // three classes: the graph and features carry them
  CHECK(status["recoveries"] == 0);
  CheckModels(f, run, expected.weights);
  REQUIRE(status["party_traffic"].size() == 3);
  for (const json& p : status["party_traffic"]) {
    CHECK(p["bytes_sent"].get<std::uint64_t>() > 0);
    CHECK(p["propagation_bytes_sent"].get<std::uint64_t>() > 0);
  }

  // Every party serves its own users' predictions, and only theirs.
  for (std::size_t i = 0; i < f.size(); ++i) {
    const auto models = f.party(i).Admin("GET", "/v1/admin/federation/models");
    CHECK(json::parse(models.body)["models"].size() == 1);
    const std::uint64_t own = shares[i].keys[0];
    const auto answer = f.party(i).Admin("POST", "/v1/admin/federation/models/" + std::to_string(run) + "/predict",
                                         json{{"keys", {own}}}.dump());
    REQUIRE_MESSAGE(answer.status == 200, answer.body);
    CHECK(json::parse(answer.body)["predictions"][0]["probabilities"].size() == 3);
    const std::uint64_t other = shares[(i + 1) % 3].keys[0];
    CHECK(f.party(i).Admin("POST", "/v1/admin/federation/models/" + std::to_string(run) + "/predict",
                           json{{"keys", {other}}}.dump()).status == 404);
  }
}

TEST_CASE("Federation.RefusesStrangersAndBadRequests") {
  DaemonFederation f(kNames, 20000, {"mallory"});
  const HeldGraphParts whole = PlantedGraph(60, 4);
  f.Upload(SplitIntoShares(whole, DealParties(60, 5), kNames).value(), 9);

  // The federation listener of party east, reached by three kinds of stranger.
  transport::ServerEndpoint e;
  e.host = "127.0.0.1";
  e.port = f.federation_port(1);
  e.ca_file = f.pki().ca_certificate;
  const std::string open = json{{"held_graph", 9}, {"parties", kNames}, {"steps", 2}, {"seed", 0},
                                {"train_fraction", 0.5}, {"val_fraction", 0.25}, {"lnnc", false}}.dump();
  {  // no client certificate: the handshake fails, and east's log says so
    auto c = transport::HttpsClient::Create(e).value();
    CHECK(!c->Request("POST", "/v1/federation/runs/1/open", "application/json", open, "").ok());
    const std::vector<json> failed = AwaitEvents(f.party(1), "tls_handshake_failed", 1);
    REQUIRE(failed.size() == 1);
    CHECK(failed[0]["remote"].get<std::string>().find("127.0.0.1") != std::string::npos);
  }
  {  // a certificate from the right CA, for a name no party's config has
    transport::ServerEndpoint m = e;
    m.client_certificate_file = f.pki().certificates[3];
    m.client_key_file = f.pki().keys[3];
    auto c = transport::HttpsClient::Create(m).value();
    auto answer = c->Request("POST", "/v1/federation/runs/1/open", "application/json", open, "");
    REQUIRE(answer.ok());
    CHECK(answer->status == 403);
    CHECK(answer->body.find("unknown_party") != std::string::npos);
  }
  {  // a certificate of another CA with a party's name
    TempDir other;
    const FederationPkiFiles forged = WriteTestFederationPki(other.path(), {"north"}, "another CA").value();
    transport::ServerEndpoint m = e;
    m.client_certificate_file = forged.certificates[0];
    m.client_key_file = forged.keys[0];
    auto c = transport::HttpsClient::Create(m).value();
    CHECK(!c->Request("POST", "/v1/federation/runs/1/open", "application/json", open, "").ok());
    CHECK(AwaitEvents(f.party(1), "tls_handshake_failed", 2).size() == 2);
  }

  // Bad run requests: a precise 400 or 422, nothing started.
  struct Case {
    json body;
    int status;
  };
  const Case cases[] = {
      {json::object(), 400},                                   // no held graph
      {{{"held_graph", 9}, {"lr", -1}}, 400},                  // a negative learning rate
      {{{"held_graph", 9}, {"train_fraction", 0.8}, {"val_fraction", 0.4}}, 400},
      {{{"held_graph", 9}, {"steps", 65}}, 400},
      {{{"held_graph", 9}, {"epochs", 0}}, 400},
      {{{"held_graph", 9}, {"colour", "blue"}}, 400},          // an unknown field
      {{{"held_graph", 9}, {"lnnc", "yes"}}, 400},
      {{{"held_graph", 10}}, 422},                             // no such share here
  };
  for (const Case& c : cases) {
    const auto answer = f.coordinator().Admin("POST", "/v1/admin/federation/runs", c.body.dump());
    CHECK_MESSAGE(answer.status == c.status, c.body.dump() << " -> " << answer.body);
  }
  CHECK(json::parse(f.coordinator().Admin("GET", "/v1/admin/federation/runs").body)["runs"].empty());
  CHECK(f.coordinator().Admin("GET", "/v1/admin/federation/runs/77").status == 404);
  CHECK(f.coordinator().Admin("DELETE", "/v1/admin/federation/runs/77").status == 409);
  CHECK(f.coordinator().Admin("GET", "/v1/admin/federation/models/77").status == 404);

  // A share that names a party the run does not have: the run fails, saying so.
  HeldGraphParts odd = SplitIntoShares(whole, DealParties(60, 5), kNames).value()[1];
  for (HeldGraphParts::Border& b : odd.border) b.party = "south";
  REQUIRE(f.party(1).Admin("PUT", "/v1/admin/held-graphs/11", HeldGraphUploadJson(odd)).status == 201);
  REQUIRE(f.party(0).Admin("PUT", "/v1/admin/held-graphs/11",
                           HeldGraphUploadJson(SplitIntoShares(whole, DealParties(60, 5), kNames).value()[0])).status == 201);
  const json failed = f.Wait(f.Start({{"held_graph", 11}}));
  CHECK(failed["state"] == "failed");
  CHECK(failed["error"].get<std::string>().find("south") != std::string::npos);

  // A daemon in no federation.
  AdminDaemon alone;
  CHECK(alone.Admin("POST", "/v1/admin/federation/runs", json{{"held_graph", 1}}.dump()).status == 409);
}

TEST_CASE("Federation.OnlyItsCoordinatorOpensOrDeletesARun") {
  DaemonFederation f(kNames);
  const HeldGraphParts whole = PlantedGraph(90, 12);
  const std::vector<HeldGraphParts> shares = SplitIntoShares(whole, DealParties(90, 13), kNames).value();
  f.Upload(shares, 4);
  auto east_at_west = PartyClient(f, 1, 2);
  const auto path = [](std::uint64_t run) { return "/v1/federation/runs/" + std::to_string(run); };
  const std::string open = json{{"held_graph", 4}, {"parties", kNames}, {"steps", 2}, {"seed", 0},
                                {"train_fraction", 0.5}, {"val_fraction", 0.25}, {"lnnc", false}}.dump();

  // Mid-run, east tries to take north's run over at west: refused, and
  // north's run goes on to the model it would have trained anyway.
  const std::uint64_t running = f.Start({{"held_graph", 4}, {"epochs", 3000}, {"seed", 1}});
  REQUIRE(f.WaitForRound(running, 1)["state"] == "running");
  auto taken = east_at_west->Request("POST", path(running) + "/open", "application/json", open, "");
  REQUIRE(taken.ok());
  CHECK(taken->status == 403);
  CHECK(taken->body.find("not_coordinator") != std::string::npos);
  auto dropped = east_at_west->Request("DELETE", path(running), "", "", "");
  REQUIRE(dropped.ok());
  CHECK(dropped->status == 403);
  const json status = f.Wait(running);
  CHECK_MESSAGE(status["state"] == "succeeded", status.dump());
  CHECK(status["recoveries"] == 0);

  // Over, the run is known by its model: east can neither open it again
  // nor discard west's model of it.
  REQUIRE(f.Model(2, running).has_value());
  taken = east_at_west->Request("POST", path(running) + "/open", "application/json", open, "");
  REQUIRE(taken.ok());
  CHECK(taken->status == 403);
  dropped = east_at_west->Request("DELETE", path(running) + "?discard_model=1", "", "", "");
  REQUIRE(dropped.ok());
  CHECK(dropped->status == 403);
  CHECK(f.Model(2, running).has_value());
  CHECK(f.Model(2, running)->coordinator == "north");
  const std::vector<json> refused = Events(f.party(2), "federation_refused");
  REQUIRE(refused.size() == 4);
  for (const json& line : refused) {
    CHECK(line["party"] == "east");
    CHECK(line["coordinator"] == "north");
  }
  CHECK(refused[0]["action"] == "open");
  CHECK(refused[1]["action"] == "delete");

  // A run nobody holds is anyone's to open (east coordinating its own), and
  // the coordinator may still discard its own model.
  auto own = east_at_west->Request("POST", path(77) + "/open", "application/json", open, "");
  REQUIRE(own.ok());
  CHECK_MESSAGE(own->status == 200, own->body);
  auto north_at_west = PartyClient(f, 0, 2);
  auto discard = north_at_west->Request("DELETE", path(running) + "?discard_model=1", "", "", "");
  REQUIRE(discard.ok());
  CHECK_MESSAGE(discard->status == 200, discard->body);
  CHECK(json::parse(discard->body)["model_discarded"] == true);
  CHECK(!f.Model(2, running).has_value());
}

TEST_CASE("Federation.APartyKilledMidRunLeavesTheSameModelOrNone") {
  DaemonFederation f(kNames, 30000);
  const HeldGraphParts whole = PlantedGraph(240, 6);
  const std::vector<HeldGraphParts> shares = SplitIntoShares(whole, DealParties(240, 7), kNames).value();
  f.Upload(shares, 3);
  const json request = {{"held_graph", 3}, {"epochs", 5000}, {"seed", 1}};
  FederatedSgcOptions o;
  o.max_epochs = 5000;
  o.seed = 1;
  const FederatedSgcRun expected = InProcess(shares, 2, o);

  // Under ASan a run takes 14 s instead of 2: four kills there (east and west
  // twice each) cover the recovery path's memory use in CI's time budget.
  const int kills = LDPGRAPH_UNDER_ASAN ? 4 : 10;
  int recovered = 0;
  for (int k = 0; k < kills; ++k) {
    const std::size_t victim = 1 + static_cast<std::size_t>(k % 2);  // east, west
    const std::uint64_t run = f.Start(request);
    // Training under way first: on a loaded machine a kill at a fixed time
    // could land before the run reached the victim, which then needs no
    // recovery. Then a different point of the run each time.
    REQUIRE(f.WaitForRound(run, 1)["state"] == "running");
    std::this_thread::sleep_for(std::chrono::milliseconds(37 * k));
    f.party(victim).process.Kill();
    f.party(victim).Start();  // systemd's Restart=on-failure
    const json status = f.Wait(run);
    INFO("kill " << k << ": " << status.dump());
    // Every model file any party holds decodes (Model() checks it).
    for (std::size_t i = 0; i < f.size(); ++i) {
      for (const auto& entry : std::filesystem::directory_iterator(f.party(i).dir.path() + "/models/federated")) {
        const std::string name = entry.path().filename().string();
        if (name.size() > 9 && name.substr(name.size() - 9) == ".fedmodel") {
          CHECK(f.Model(i, std::stoull(name)).has_value());
        }
      }
    }
    if (status["state"] == "succeeded") {
      CHECK(status["best_round"] == expected.best_epoch);
      CheckModels(f, run, expected.weights);
      recovered += status["recoveries"].get<int>() > 0;
    } else {
      CHECK(status["state"] == "failed");
      for (std::size_t i = 0; i < f.size(); ++i) CHECK(!f.Model(i, run).has_value());
    }
  }
  MESSAGE("runs that recovered from a killed party: " << recovered << " of " << kills);
  CHECK(recovered == kills);  // every kill lands mid-run (a run takes seconds)

  // The coordinator killed mid-run: after its restart the run is failed,
  // and no party wrote a model of it.
  const std::uint64_t run = f.Start(request);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  f.coordinator().process.Kill();
  f.coordinator().Start();
  const json status = json::parse(f.coordinator().Admin("GET", "/v1/admin/federation/runs/" + std::to_string(run)).body);
  CHECK(status["state"] == "failed");
  CHECK(status["error"] == "the coordinator stopped during the run");
  for (std::size_t i = 0; i < f.size(); ++i) CHECK(!f.Model(i, run).has_value());
}

TEST_CASE("Federation.CoraInThreePartiesOverTls") {
#if LDPGRAPH_UNDER_ASAN
  // 80 s of CI's 2 cores under ASan for no path the small held graphs above
  // do not take; the release tier runs it on the real data.
  MESSAGE("skipped under AddressSanitizer (CI time); the release tier runs it");
  return;
#endif
  const std::string path = SharedDataDir() + "/nodes/cora";
  if (!std::filesystem::exists(path)) {
    MESSAGE("skipped: " << path << " is absent (../shared/data)");
    return;
  }
  Result<GraphDataset> ds = ReadDataset(path);
  REQUIRE(ds.ok());
  const HeldGraphParts whole = HeldGraphFromDataset(*ds).value();
  const std::vector<HeldGraphParts> shares = SplitIntoShares(whole, DealParties(whole.num_nodes, 8), kNames).value();
  DaemonFederation f(kNames);
  f.Upload(shares, 1);
  const std::uint64_t run = f.Start({{"held_graph", 1}, {"seed", 2}});
  const json status = f.Wait(run);
  REQUIRE_MESSAGE(status["state"] == "succeeded", status.dump());
  FederatedSgcOptions o;
  o.seed = 2;
  const FederatedSgcRun expected = InProcess(shares, 2, o);
  CHECK(status["best_round"] == expected.best_epoch);
  CHECK(status["test_accuracy"].get<double>() == doctest::Approx(expected.test_accuracy));
  CHECK(expected.test_accuracy > 0.8);
  std::string traffic;
  for (const json& p : status["party_traffic"]) {
    traffic += " " + p["name"].get<std::string>() + "_sent=" + p["bytes_sent"].dump();
  }
  MESSAGE("cora 3 parties over TLS: seconds=" << status["seconds"] << " propagation_seconds="
                                              << status["propagation_seconds"] << " rounds_per_second="
                                              << status["rounds_per_second"] << " test_accuracy="
                                              << status["test_accuracy"] << traffic);
}
