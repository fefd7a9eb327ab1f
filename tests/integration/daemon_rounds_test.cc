// Rounds on a real ldpgraphd (docs/rounds.md): devices report with the
// SDK's ledger (memoised, one report per round) over real TLS; the admin
// closes rounds and each closed round is retrained into a model version;
// a device's result follows the newest model; a timed schedule closes rounds
// by itself; and SIGKILLs while rounds are collected and closed lose no
// acknowledged report and never put a report into a round it was not sent in.
#include <doctest/doctest.h>

#include <map>
#include <random>
#include <set>
#include <thread>

#include <nlohmann/json.hpp>

#include "ldpgraph/budget_ledger.h"
#include "ldpgraph/report_builder.h"
#include "ldpgraph/transport/uploader.h"
#include "ldpgraph/wire_format.h"
#include "net/token_authority.h"
#include "store/report_store.h"
#include "store/sqlite_report_store.h"
#include "support/admin_daemon.h"
#include "support/memory_ledger_storage.h"
#include "support/run_command.h"

using nlohmann::json;
using ldpgraph::testing::AdminDaemon;
using ldpgraph::testing::DaemonProcess;
namespace lt = ldpgraph::transport;

namespace {

constexpr std::uint64_t kGraph = 70;
constexpr std::uint32_t kUsers = 400;

// Two communities of users (class u % 2), friends mostly within, features
// that lean to the class: a graph a GCN learns in a few epochs.
struct Population {
  std::vector<std::vector<std::uint32_t>> friends;
  std::vector<std::vector<double>> features;
  std::mt19937_64 rng{3};

  Population() : friends(kUsers), features(kUsers) {
    for (std::uint32_t u = 0; u < kUsers; ++u) {
      std::set<std::uint32_t> f;
      while (f.size() < 6) {
        const std::uint32_t v = Stranger(u);
        if (v != u) f.insert(v);
      }
      friends[u].assign(f.begin(), f.end());
      for (int d = 0; d < 8; ++d) features[u].push_back((u % 2 == 0) == (d < 4) ? 0.8 : 0.2);
    }
  }
  std::uint32_t Stranger(std::uint32_t u) {
    const bool same = std::uniform_real_distribution<double>(0, 1)(rng) < 0.9;
    std::uint32_t v = std::uniform_int_distribution<std::uint32_t>(0, kUsers / 2 - 1)(rng) * 2;
    return same ? v + u % 2 : v + 1 - u % 2;
  }
  // 10% of users swap 10% (at least one) of their friends.
  std::set<std::uint32_t> Change() {
    std::set<std::uint32_t> changed;
    while (changed.size() < kUsers / 10) {
      const std::uint32_t u = std::uniform_int_distribution<std::uint32_t>(0, kUsers - 1)(rng);
      std::set<std::uint32_t> f(friends[u].begin(), friends[u].end());
      f.erase(f.begin());
      std::uint32_t v = u;
      while (v == u || f.count(v)) v = Stranger(u);
      f.insert(v);
      friends[u].assign(f.begin(), f.end());
      changed.insert(u);
    }
    return changed;
  }
  ldpgraph::UserData Data(std::uint32_t u) const {
    ldpgraph::UserData d;
    d.user_id = u;
    d.neighbours = ldpgraph::Span<const std::uint32_t>(friends[u].data(), friends[u].size());
    d.features = ldpgraph::Span<const double>(features[u].data(), features[u].size());
    d.has_label = true;
    d.label = u % 2;
    return d;
  }
};

ldpgraph::GraphConfig Config() {
  ldpgraph::GraphConfig c;
  c.graph_id = kGraph;
  c.num_users = kUsers;
  c.edges.mechanism = ldpgraph::EdgeMechanism::kRr;
  c.edges.epsilon = 4;
  c.features.enabled = true;
  c.features.params.dims = 8;
  c.features.params.epsilon = 4;
  c.label.enabled = true;
  c.label.classes = 2;
  c.label.epsilon = 4;
  return c;
}

const char* kCreate = R"({"graph_id": 70, "num_users": 400, "edges": {"mechanism": "rr", "epsilon": 4},
  "features": {"dims": 8, "epsilon": 4}, "label": {"classes": 2, "epsilon": 4},
  "rounds": {"history": 4, "retrain": {"model": "gcn", "epochs": 30, "seed": 1, "label_method": "fc"}}})";

// Every user's device: its ledger (in memory) and token.
struct Devices {
  std::vector<ldpgraph::testing::MemoryStore> storage{kUsers};
  std::vector<std::unique_ptr<ldpgraph::BudgetLedger>> ledgers;
  std::vector<std::string> tokens;
  std::unique_ptr<ldpgraph::ReportBuilder> builder;
  ldpgraph::SeededRandomSource rng{9};

  Devices() {
    auto b = ldpgraph::ReportBuilder::Create(Config());
    REQUIRE(b.ok());
    builder = std::move(*b);
    auto authority = ldpgraph::TokenAuthority::Create(DaemonProcess::kSecret);
    REQUIRE(authority.ok());
    for (std::uint32_t u = 0; u < kUsers; ++u) {
      auto l = ldpgraph::BudgetLedger::Open(storage[u].Storage(), 100);
      REQUIRE(l.ok());
      ledgers.push_back(std::move(*l));
      tokens.push_back(authority->Issue(kGraph, u));
    }
  }
  std::vector<std::uint8_t> Round(const Population& p, std::uint32_t u, std::uint32_t round) {
    auto bytes = ledgers[u]->ReportRound(*builder, p.Data(u), round, rng);
    REQUIRE_MESSAGE(bytes.ok(), bytes.status().ToString());
    return *bytes;
  }
};

lt::HttpAnswer Send(AdminDaemon& d, const std::string& token, const std::vector<std::uint8_t>& bytes) {
  return d.Call("POST", "/v1/reports", std::string(bytes.begin(), bytes.end()), token);
}

json Body(const lt::HttpAnswer& a) { return json::parse(a.body); }

// The newest model version and its summary.
std::pair<std::uint64_t, json> NewestModel(AdminDaemon& d) {
  const json models = Body(d.Admin("GET", "/v1/admin/models"))["models"];
  REQUIRE_FALSE(models.empty());
  return {models.back()["version"].get<std::uint64_t>(), models.back()};
}

}  // namespace

TEST_CASE("DaemonRounds.ThreeRoundsOfAChangingGraphGiveAModelEach") {
  AdminDaemon d;
  const auto created = d.Admin("POST", "/v1/admin/graphs", kCreate);
  REQUIRE_MESSAGE(created.status == 201, created.body);
  CHECK(Body(created)["rounds"]["history"] == 4);
  const json graph = Body(d.Call("GET", "/v1/graphs/70", "", ""));
  CHECK(graph["rounds"]["open"] == 1);
  CHECK(graph["rounds"]["retrain"]["model"] == "gcn");

  Population people;
  Devices devices;
  // A device learns the open round with the graph's configuration.
  lt::UploaderOptions uploading;
  uploading.server = d.process.endpoint();
  auto uploader = lt::Uploader::Create(uploading);
  REQUIRE(uploader.ok());
  std::vector<double> loss_before(kUsers);
  std::set<std::uint64_t> versions;
  std::size_t grew = 0;  // changed users whose loss grew
  for (std::uint32_t round = 1; round <= 3; ++round) {
    INFO("round " << round);
    const std::set<std::uint32_t> changed = round == 1 ? std::set<std::uint32_t>() : people.Change();
    std::uint32_t open = 0;
    REQUIRE((*uploader)->FetchGraphConfig(kGraph, &open).ok());
    CHECK(open == round);
    const auto open_round = (*uploader)->FetchOpenRound(kGraph);
    REQUIRE(open_round.ok());
    CHECK(*open_round == round);
    for (std::uint32_t u = 0; u < kUsers; ++u) {
      const auto answer = Send(d, devices.tokens[u], devices.Round(people, u, round));
      REQUIRE_MESSAGE(answer.status == 200, answer.body);
      CHECK(Body(answer)["outcome"] == "stored");
      // The ledger: an unchanged user's loss does not move; a change's may
      // (up to twice the edge epsilon once some friendship showed both bits).
      const double loss = devices.ledgers[u]->Loss(kGraph)->epsilon;
      if (round > 1 && !changed.count(u)) CHECK(loss == doctest::Approx(loss_before[u]));
      if (round > 1 && changed.count(u)) CHECK(loss >= loss_before[u]);
      if (round > 1 && changed.count(u)) grew += loss > loss_before[u];
      loss_before[u] = loss;
    }
    // A report of a round not yet open is refused (sent from another ledger,
    // so that user 0's own stays at this round).
    ldpgraph::testing::MemoryStore elsewhere;
    auto early_ledger = ldpgraph::BudgetLedger::Open(elsewhere.Storage(), 100);
    REQUIRE(early_ledger.ok());
    const auto early_bytes = (*early_ledger)->ReportRound(*devices.builder, people.Data(0), round + 1, devices.rng);
    REQUIRE(early_bytes.ok());
    const auto early = Send(d, devices.tokens[0], *early_bytes);
    CHECK(early.status == 409);
    CHECK(Body(early)["error"] == "wrong_round");
    const auto closed = d.Admin("POST", "/v1/admin/graphs/70/rounds", json{{"close", round}}.dump());
    REQUIRE_MESSAGE(closed.status == 201, closed.body);
    CHECK(Body(closed)["open"] == round + 1);
    CHECK(Body(closed)["closed"] == round);
    REQUIRE_MESSAGE(Body(closed)["retrain"].contains("job_id"), closed.body);
    const json job = d.Wait(Body(closed)["retrain"]["job_id"]);
    REQUIRE_MESSAGE(job["state"] == "succeeded", job.dump());
    const auto [version, about] = NewestModel(d);
    CHECK(about["round"] == round);
    CHECK(about["reporters"] == kUsers);
    versions.insert(version);
    // Her result follows the newest model.
    const auto result = d.Call("GET", "/v1/graphs/70/result", "", devices.tokens[5]);
    REQUIRE_MESSAGE(result.status == 200, result.body);
    CHECK(Body(result)["model_version"] == version);
  }
  CHECK(versions.size() == 3);
  CHECK(grew >= kUsers / 10);
  // Unchanged users: three rounds for the loss of one; the naive scheme paid three.
  std::size_t unchanged = 0;
  for (std::uint32_t u = 0; u < kUsers; ++u) {
    const ldpgraph::GraphLoss loss = *devices.ledgers[u]->Loss(kGraph);
    if (loss.epsilon == doctest::Approx(loss.naive_epsilon / 3)) ++unchanged;
  }
  MESSAGE("users whose three rounds cost one: " << unchanged << " of " << kUsers);
  CHECK(unchanged > kUsers / 2);

  // Closing a round that is not open, and jobs on rounds kept or not.
  const auto stale = d.Admin("POST", "/v1/admin/graphs/70/rounds", R"({"close": 2})");
  CHECK(stale.status == 409);
  CHECK(Body(stale)["error"] == "round_not_open");
  const auto on_one = d.Admin("POST", "/v1/admin/jobs",
                              R"({"task": "node", "graph": 70, "round": 1, "model": "gcn", "epochs": 5})");
  CHECK_MESSAGE(on_one.status == 202, on_one.body);
  CHECK(d.Wait(Body(on_one)["job_id"])["state"] == "succeeded");
  CHECK(NewestModel(d).second["round"] == 1);
  const auto future = d.Admin("POST", "/v1/admin/jobs", R"({"task": "node", "graph": 70, "round": 9})");
  CHECK(future.status == 400);
  CHECK(Body(future)["message"].get<std::string>().find("keeps rounds 1 to 4") != std::string::npos);
  const auto state = d.Admin("GET", "/v1/admin/graphs/70/rounds");
  CHECK(Body(state)["open"] == 4);
  const json listed = Body(d.Admin("GET", "/v1/admin/graphs"))["graphs"][0];
  CHECK(listed["rounds"]["open"] == 4);
  CHECK(listed["reports"] == kUsers);
  const std::string metrics = d.Call("GET", "/metrics", "", "").body;
  CHECK(metrics.find("ldpgraph_rounds_opened_total 3") != std::string::npos);
  CHECK(metrics.find("ldpgraph_reports_rejected_total{reason=\"wrong_round\"} 3") != std::string::npos);
}

TEST_CASE("DaemonRounds.BadRoundsAreRefusedAndChangeNothing") {
  AdminDaemon d;
  auto create = [&](const std::string& body) { return d.Admin("POST", "/v1/admin/graphs", body); };
  const std::string base = R"({"graph_id": 5, "num_users": 100, "edges": {"mechanism": "rr", "epsilon": 2})";
  for (const auto& bad : std::vector<std::pair<std::string, std::string>>{
           {R"("rounds": {"history": 0})", "rounds.history"},
           {R"("rounds": {"every_hours": 0})", "rounds.every_hours"},
           {R"("rounds": {"weekly": true})", "rounds.weekly"},
           {R"("rounds": {"retrain": {"model": "gcn"}})", "features and labels"},
           {R"("rounds": {"retrain": {"graph": 3}})", "rounds.retrain.graph"},
           {R"("rounds": {"retrain": {"label_method": "rr"}})", "rounds.retrain.label_method"},
           {R"("rounds": {"retrain": {"epochs": 0}})", "rounds.retrain.epochs"},
           {R"("rounds": 7)", "rounds must be an object"}}) {
    // (Not a structured binding: clang's C++17 cannot capture one in CHECK_MESSAGE's lambda.)
    const auto refused = create(base + ", " + bad.first + "}");
    CHECK_MESSAGE(refused.status == 400, bad.first);
    CHECK_MESSAGE(Body(refused)["message"].get<std::string>().find(bad.second) != std::string::npos, refused.body);
  }
  CHECK(Body(d.Admin("GET", "/v1/admin/graphs"))["graphs"].empty());
  REQUIRE(create(base + "}").status == 201);  // collected once
  const auto once = d.Admin("POST", "/v1/admin/graphs/5/rounds");
  CHECK(once.status == 409);
  CHECK(Body(once)["error"] == "not_in_rounds");
  CHECK(d.Admin("GET", "/v1/admin/graphs/6/rounds").status == 404);
  CHECK(d.Admin("PUT", "/v1/admin/graphs/5/rounds").status == 405);
  CHECK(d.Call("POST", "/v1/admin/graphs/5/rounds", "", "").status == 401);

  // A report in rounds to a graph collected once, and the reverse.
  ldpgraph::GraphConfig c;
  c.graph_id = 5;
  c.num_users = 100;
  c.edges.mechanism = ldpgraph::EdgeMechanism::kRr;
  c.edges.epsilon = 2;
  auto builder = ldpgraph::ReportBuilder::Create(c);
  REQUIRE(builder.ok());
  ldpgraph::testing::MemoryStore storage;
  auto ledger = ldpgraph::BudgetLedger::Open(storage.Storage(), 100);
  REQUIRE(ledger.ok());
  ldpgraph::SeededRandomSource rng(1);
  const std::vector<std::uint32_t> friends = {1, 2};
  ldpgraph::UserData data;
  data.user_id = 0;
  data.neighbours = ldpgraph::Span<const std::uint32_t>(friends.data(), friends.size());
  const auto bytes = (*ledger)->ReportRound(**builder, data, 1, rng);
  REQUIRE(bytes.ok());
  const std::string token = ldpgraph::TokenAuthority::Create(DaemonProcess::kSecret)->Issue(5, 0);
  const auto wrong = d.Call("POST", "/v1/reports", std::string(bytes->begin(), bytes->end()), token);
  CHECK(wrong.status == 422);
  CHECK(Body(wrong)["message"].get<std::string>().find("collected once") != std::string::npos);
  CHECK(Body(d.Admin("GET", "/v1/admin/graphs"))["graphs"][0]["reports"] == 0);
}

TEST_CASE("DaemonRounds.ATimedScheduleClosesRoundsByItself") {
  AdminDaemon d;
  // One round a second: the smallest schedule.
  const auto created = d.Admin(
      "POST", "/v1/admin/graphs",
      R"({"graph_id": 9, "num_users": 50, "edges": {"mechanism": "rr", "epsilon": 2}, "rounds": {"every_hours": 0.000277778}})");
  REQUIRE_MESSAGE(created.status == 201, created.body);
  std::this_thread::sleep_for(std::chrono::milliseconds(3500));
  const json state = Body(d.Admin("GET", "/v1/admin/graphs/9/rounds"));
  CHECK(state["open"].get<int>() >= 3);
  CHECK(state["open"].get<int>() <= 5);
  CHECK(state["closes_unix"].get<std::int64_t>() >= state["opened_unix"].get<std::int64_t>() + 1);
  // Stopped for longer than a round: one round closes at the restart, not one per missed second.
  d.process.Stop();
  std::this_thread::sleep_for(std::chrono::milliseconds(3000));
  d.Start();
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  const int after = Body(d.Admin("GET", "/v1/admin/graphs/9/rounds"))["open"].get<int>();
  CHECK(after >= state["open"].get<int>() + 1);
  CHECK(after <= state["open"].get<int>() + 3);
  CHECK(d.process.run_log().find("\"by\":\"schedule\"") != std::string::npos);
}

// `ldpgraph daemon rounds` and `close-round`: the CLI's face of the same calls.
TEST_CASE("DaemonRounds.TheCliShowsAndClosesRounds") {
  AdminDaemon d;
  REQUIRE(d.Admin("POST", "/v1/admin/graphs",
                  R"({"graph_id": 12, "num_users": 50, "edges": {"mechanism": "rr", "epsilon": 2}, "rounds": {}})")
              .status == 201);
  REQUIRE(d.Admin("POST", "/v1/admin/graphs", R"({"graph_id": 13, "num_users": 50, "edges": {"mechanism": "rr", "epsilon": 2}})")
              .status == 201);
  const std::string cli = std::string("LDPGRAPH_ADMIN_TOKEN=") + DaemonProcess::kAdminToken + " " + LDPGRAPH_CLI +
                          " daemon %s --daemon https://127.0.0.1:" + std::to_string(d.process.port()) + " --ca " +
                          d.process.pki().ca_certificate + " 2>&1";
  auto run = [&](const std::string& action) {
    char command[2048];
    std::snprintf(command, sizeof command, cli.c_str(), action.c_str());
    return ldpgraph::testing::RunCommand(command);
  };
  const auto shown = run("rounds --graph 12");
  CHECK_MESSAGE(shown.status == 0, shown.output);
  CHECK(shown.output.find("open=1\n") != std::string::npos);
  // Refusals say why and change nothing.
  const auto stale = run("close-round --graph 12 --round 2");
  CHECK(stale.status == 1);
  CHECK_MESSAGE(stale.output.find("HTTP 409") != std::string::npos, stale.output);
  const auto once = run("close-round --graph 13");
  CHECK(once.status == 1);
  CHECK_MESSAGE(once.output.find("collected once") != std::string::npos, once.output);
  const auto no_graph = run("close-round --round 1");
  CHECK(no_graph.status == 2);
  CHECK(no_graph.output.find("--graph ID is required") != std::string::npos);
  const auto bad_round = run("close-round --graph 12 --round -1");
  CHECK(bad_round.status == 2);
  CHECK(run("rounds --graph 12 --round 1").status == 2);
  CHECK(Body(d.Admin("GET", "/v1/admin/graphs/12/rounds"))["open"] == 1);
  // Closing the open round opens the next.
  const auto closed = run("close-round --graph 12 --round 1");
  CHECK_MESSAGE(closed.status == 0, closed.output);
  CHECK(closed.output.find("closed=1\n") != std::string::npos);
  CHECK(closed.output.find("open=2\n") != std::string::npos);
  CHECK(run("close-round --graph 12").output.find("open=3\n") != std::string::npos);
  CHECK(Body(d.Admin("GET", "/v1/admin/graphs/12/rounds"))["open"] == 3);
}

// SIGKILLs while devices report their rounds and the admin closes them:
// every report acknowledged is stored in the round it was sent in; a report
// refused for its round is nowhere; each round's graph holds each user once,
// from her newest report up to that round.
TEST_CASE("DaemonRounds.SigkillsNeitherLoseAcknowledgedReportsNorMixRounds") {
  AdminDaemon d;
  REQUIRE(d.Admin("POST", "/v1/admin/graphs", kCreate).status == 201);
  Population people;
  Devices devices;
  std::mt19937_64 draw(17);
  // (user, round) -> what the daemon last answered: 200 stored/duplicate, 409 wrong_round.
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<std::uint8_t>> acknowledged, refused;
  int kills = 0;
  auto next_kill = [&] { return std::uniform_int_distribution<int>(20, 120)(draw); };
  int until_kill = next_kill();
  auto maybe_kill = [&] {
    if (--until_kill > 0) return;
    d.process.Kill();
    ++kills;
    d.Start();
    until_kill = next_kill();
  };
  for (std::uint32_t round = 1; round <= 3; ++round) {
    if (round > 1) people.Change();
    // Users report in a random order; the admin closes the round when 80% have.
    std::vector<std::uint32_t> order(kUsers);
    for (std::uint32_t u = 0; u < kUsers; ++u) order[u] = u;
    std::shuffle(order.begin(), order.end(), draw);
    for (std::size_t i = 0; i < order.size(); ++i) {
      const std::uint32_t u = order[i];
      if (i == order.size() * 8 / 10) {
        for (;;) {  // the admin retries a close the kill interrupted
          auto answer = d.client->Request("POST", "/v1/admin/graphs/70/rounds", "application/json",
                                          json{{"close", round}}.dump(), DaemonProcess::kAdminToken);
          if (answer.ok() && (answer->status == 201 || answer->status == 409)) break;
          d.Start();
        }
      }
      const std::vector<std::uint8_t> bytes = devices.Round(people, u, round);
      for (;;) {  // a device retries the same bytes until it has an answer
        auto answer = d.client->Request("POST", "/v1/reports", "application/x-ldpgraph-report",
                                        std::string(bytes.begin(), bytes.end()), devices.tokens[u]);
        if (answer.ok() && answer->status == 200) {
          acknowledged[{u, round}] = bytes;
          break;
        }
        if (answer.ok() && answer->status == 409) {
          refused[{u, round}] = bytes;
          break;
        }
        REQUIRE_FALSE_MESSAGE(answer.ok(), answer->body);
        d.Start();  // the connection died with the daemon
      }
      maybe_kill();
    }
  }
  MESSAGE("kills=" << kills << " acknowledged=" << acknowledged.size() << " refused=" << refused.size());
  CHECK(kills >= 10);
  CHECK(refused.size() >= kUsers / 10);  // the last 20% of rounds 1, 2 and 3 came after the close
  d.process.Stop();

  ldpgraph::SqliteStoreOptions o;
  o.path = d.process.store_path();
  auto store = ldpgraph::OpenSqliteReportStore(o);
  REQUIRE(store.ok());
  for (std::uint32_t round = 1; round <= 4; ++round) {
    std::set<std::uint32_t> users;
    REQUIRE((*store)->ForEachReport(kGraph, round, [&](const ldpgraph::ReportRecord& r) {
                       CHECK(users.insert(r.user_id).second);
                       CHECK(r.round <= round);
                       CHECK(r.round == ldpgraph::DecodeReport(r.bytes.data(), r.bytes.size())->round);
                       // Her newest acknowledged report up to this round, byte for byte.
                       std::uint32_t newest = 0;
                       for (std::uint32_t k = 1; k <= round; ++k) newest = acknowledged.count({r.user_id, k}) ? k : newest;
                       CHECK(r.round == newest);
                       CHECK(r.bytes == acknowledged[{r.user_id, newest}]);
                     }).ok());
    std::size_t expected = 0;
    for (std::uint32_t u = 0; u < kUsers; ++u) {
      bool any = false;
      for (std::uint32_t k = 1; k <= round; ++k) any = any || acknowledged.count({u, k});
      expected += any;
    }
    CHECK(users.size() == expected);
  }
}
