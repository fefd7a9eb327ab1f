// Crash safety with real processes: uploader threads send a load of reports
// while ldpgraphd is killed with SIGKILL at random moments and restarted.
// Each client keeps its reports in the SDK's on-disk queue and is itself
// "restarted" (the uploader rebuilt from its queue directory) between
// flushes. At the end every report is in the store exactly once, byte for
// byte, and every queue is empty: nothing acknowledged was lost, nothing
// retried was counted twice.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <map>
#include <random>
#include <thread>

#include "ldpgraph/report_builder.h"
#include "ldpgraph/transport/uploader.h"
#include "ldpgraph/wire_format.h"
#include "service/token_authority.h"
#include "store/sqlite_report_store.h"
#include "support/daemon_process.h"
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
