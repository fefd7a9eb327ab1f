// Crash safety with real processes: uploader threads send a load of reports
// while ldpgraphd is killed with SIGKILL at random moments and restarted.
// Each client keeps its reports in the SDK's on-disk queue and is itself
// "restarted" (the uploader rebuilt from its queue directory) between
// flushes. At the end every report is in the store exactly once, byte for
// byte, and every queue is empty: nothing acknowledged was lost, nothing
// retried was counted twice.
// Training jobs across SIGKILLs: a job killed at a random epoch is there
// after the restart, failed as interrupted; every job submitted is accounted
// for, and no id serves twice. A restart waits for its port while the old
// process still holds it.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <map>
#include <random>
#include <thread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ldpgraph/report_builder.h"
#include "ldpgraph/transport/uploader.h"
#include "ldpgraph/wire_format.h"
#include "net/token_authority.h"
#include "store/sqlite_report_store.h"
#include "support/admin_daemon.h"
#include "support/daemon_process.h"
#include "support/held_graph_upload.h"
#include "support/sanitizers.h"
#include "support/temp_dir.h"

using ldpgraph::testing::DaemonProcess;
using ldpgraph::testing::TempDir;
namespace lt = ldpgraph::transport;

namespace {

constexpr std::uint32_t kUsers = 10000;
constexpr int kClients = 4;
constexpr int kMinKills = 20;
constexpr std::size_t kReportsPerFlush = 25;

// Each user's encoded report and the token it is sent with.
std::vector<ldpgraph::transport::OutgoingReport> PrepareReports() {
  ldpgraph::GraphConfig config;
  config.graph_id = 1;
  config.num_users = kUsers;
  config.edges.epsilon = 2.0;
  auto builder = ldpgraph::ReportBuilder::Create(config);
  REQUIRE(builder.ok());
  auto authority = ldpgraph::TokenAuthority::Create(DaemonProcess::kSecret);
  REQUIRE(authority.ok());
  ldpgraph::SeededRandomSource rng(11);
  std::vector<ldpgraph::transport::OutgoingReport> out(kUsers);
  for (std::uint32_t u = 0; u < kUsers; ++u) {
    std::vector<std::uint32_t> neighbours = {(u + 1) % kUsers, (u + 17) % kUsers, (u + 301) % kUsers};
    ldpgraph::UserData data;
    data.user_id = u;
    data.neighbours = ldpgraph::Span<const std::uint32_t>(neighbours.data(), neighbours.size());
    auto report = (*builder)->Build(data, rng);
    REQUIRE(report.ok());
    REQUIRE(ldpgraph::EncodeReport(*report, &out[u].report).ok());
    out[u].token = authority->Issue(1, u);
  }
  return out;
}

}  // namespace

TEST_CASE("DaemonCrash.NoAcknowledgedReportIsLostOrDuplicatedAcrossSigkills") {
  const std::vector<ldpgraph::transport::OutgoingReport> reports = PrepareReports();
  TempDir dir;
  DaemonProcess daemon(LDPGRAPHD, dir.path());
  REQUIRE_MESSAGE(daemon.Start(), daemon.log());
  {
    auto admin = lt::HttpsClient::Create(daemon.endpoint());
    REQUIRE(admin.ok());
    auto created = (*admin)->Request(
        "POST", "/v1/admin/graphs", "application/json",
        R"({"graph_id": 1, "num_users": 10000, "edges": {"mechanism": "dprr", "epsilon": 2.0}})",
        DaemonProcess::kAdminToken);
    REQUIRE(created.ok());
    REQUIRE(created->status == 201);
  }

  std::atomic<int> clients_done{0};
  std::atomic<std::size_t> delivered{0}, refused{0};
  std::atomic<int> rebuilds{0};
  auto client = [&](int k) {
    lt::UploaderOptions o;
    o.server = daemon.endpoint();
    o.server.connect_timeout_ms = 2000;
    o.server.io_timeout_ms = 5000;
    o.retry = {10, 200, 60000};
    o.queue_dir = dir.path() + "/queue" + std::to_string(k);
    o.max_queued_reports = kReportsPerFlush;
    std::size_t next = static_cast<std::size_t>(k);
    for (;;) {
      // A fresh uploader each round, as after an app restart: it must pick
      // up whatever the previous one left in the queue directory.
      auto uploader = lt::Uploader::Create(o);
      REQUIRE(uploader.ok());
      ++rebuilds;
      while (next < reports.size() && (*uploader)->queued() < kReportsPerFlush) {
        REQUIRE((*uploader)->Enqueue(reports[next].token, reports[next].report).ok());
        next += kClients;
      }
      if ((*uploader)->queued() == 0) break;
      auto summary = (*uploader)->Flush();
      REQUIRE_MESSAGE(summary.ok(), summary.status().message());
      delivered += summary->delivered;
      refused += summary->refused;
    }
    ++clients_done;
  };
  std::vector<std::thread> threads;
  for (int k = 0; k < kClients; ++k) threads.emplace_back(client, k);

  std::mt19937_64 rng(5);
  int kills = 0;
  while (clients_done.load() < kClients) {
    std::this_thread::sleep_for(std::chrono::milliseconds(std::uniform_int_distribution<int>(30, 200)(rng)));
    if (clients_done.load() == kClients) break;
    daemon.Kill();
    ++kills;
    REQUIRE_MESSAGE(daemon.Start(), daemon.log());
  }
  for (std::thread& t : threads) t.join();
  MESSAGE("kills=" << kills << " uploader_rebuilds=" << rebuilds.load());
  CHECK(kills >= kMinKills);
  CHECK(delivered.load() == kUsers);
  CHECK(refused.load() == 0);
  CHECK(daemon.Stop() == 0);

  ldpgraph::SqliteStoreOptions options;
  options.path = daemon.store_path();
  auto store = ldpgraph::OpenSqliteReportStore(options);
  REQUIRE(store.ok());
  std::map<std::uint32_t, int> seen;
  std::size_t mismatched = 0;
  REQUIRE((*store)->ForEachReport(1, [&](const ldpgraph::ReportRecord& r) {
                     ++seen[r.user_id];
                     if (r.user_id >= kUsers || r.bytes != reports[r.user_id].report) ++mismatched;
                   }).ok());
  CHECK(seen.size() == kUsers);
  CHECK(mismatched == 0);
  for (const auto& [user, count] : seen) {
    if (count != 1) FAIL("user " << user << " stored " << count << " times");
  }
}

TEST_CASE("DaemonCrash.EveryJobIsAccountedForAcrossSigkills") {
  using nlohmann::json;
  ldpgraph::testing::AdminDaemon d;
  REQUIRE(d.Admin("PUT", "/v1/admin/held-graphs/1", ldpgraph::testing::CommunitiesUpload(300).dump()).status == 201);
  // Long enough to be killed mid-training at any epoch drawn below.
  const json job = {{"task", "gap"}, {"held_graph", 1}, {"epsilon", 8}, {"epochs", 100000}};
  std::mt19937 draw(5);
  std::vector<std::uint64_t> ids;
  std::vector<int> killed_at;
  constexpr int kKills = 5;
  for (int k = 0; k < kKills; ++k) {
    // One job runs, one waits behind it: both must survive the kill.
    std::uint64_t running = 0;
    for (int i = 0; i < 2; ++i) {
      const auto started = d.Admin("POST", "/v1/admin/jobs", job.dump());
      REQUIRE_MESSAGE(started.status == 202, started.body);
      const std::uint64_t id = json::parse(started.body)["job_id"];
      for (std::uint64_t earlier : ids) CHECK(id != earlier);  // never an id twice
      ids.push_back(id);
      if (i == 0) running = id;
    }
    const int epoch = std::uniform_int_distribution<int>(1, LDPGRAPH_UNDER_ASAN ? 20 : 200)(draw);
    for (int waited = 0;; ++waited) {
      REQUIRE_MESSAGE(waited < 6000, "job " << running << " never reached epoch " << epoch);
      const json s = json::parse(d.Admin("GET", "/v1/admin/jobs/" + std::to_string(running)).body);
      REQUIRE(s["state"] != "failed");
      if (s["epoch"].get<int>() >= epoch) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    d.process.Kill();
    d.Start();
    killed_at.push_back(epoch);

    // Every job so far: there, over, and the ones this kill hit say why.
    const json all = json::parse(d.Admin("GET", "/v1/admin/jobs").body)["jobs"];
    REQUIRE(all.size() == ids.size());
    for (std::size_t i = 0; i < ids.size(); ++i) {
      INFO("kill " << k << ", job " << ids[i] << ": " << all[i].dump());
      CHECK(all[i]["job_id"] == ids[i]);
      CHECK(all[i]["state"] == "failed");
      CHECK(all[i]["error"].get<std::string>().rfind("interrupted: the daemon stopped while the job was", 0) == 0);
    }
    const json hit = json::parse(d.Admin("GET", "/v1/admin/jobs/" + std::to_string(running)).body);
    CHECK(hit["error"].get<std::string>().find("training") != std::string::npos);
    const json waiting = json::parse(d.Admin("GET", "/v1/admin/jobs/" + std::to_string(ids.back())).body);
    CHECK(waiting["error"].get<std::string>().find("queued") != std::string::npos);
  }
  // And a job after all that still trains, under a new id.
  const auto last = d.Admin("POST", "/v1/admin/jobs", json{{"task", "gap"}, {"held_graph", 1}, {"epsilon", 8},
                                                          {"epochs", 5}}.dump());
  REQUIRE(last.status == 202);
  const std::uint64_t id = json::parse(last.body)["job_id"];
  CHECK(id == ids.back() + 1);
  CHECK(d.Wait(id)["state"] == "succeeded");
  std::string epochs;
  for (int e : killed_at) epochs += " " + std::to_string(e);
  MESSAGE("jobs killed at epochs" << epochs << "; " << ids.size() << " jobs accounted for");
}

TEST_CASE("DaemonCrash.ARestartWaitsForItsPortUntilTheOldSocketIsGone") {
  // After a SIGKILL the old process can hold its listening socket a while
  // longer (it is still exiting, freeing GBs). Played here by a socket of
  // this test listening on the daemon's port for 1.5 s after the kill.
  ldpgraph::testing::AdminDaemon d;
  const std::uint16_t port = d.process.port();
  d.process.Kill();
  const int held = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);  // not inherited by the daemon
  REQUIRE(held >= 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::bind(held, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0);
  REQUIRE(::listen(held, 8) == 0);
  std::thread release([held] {
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    ::close(held);
  });
  const auto start = std::chrono::steady_clock::now();
  d.Start();  // fails the test if the daemon gives up on the port
  release.join();
  CHECK(std::chrono::steady_clock::now() - start >= std::chrono::milliseconds(1400));
  CHECK(d.process.port() == port);
  CHECK(d.Admin("GET", "/healthz").status == 200);
  CHECK(d.process.log().find("\"event\":\"listen_address_in_use\"") != std::string::npos);
}
