#include "bench/ingest_bench.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <mutex>
#include <sys/resource.h>
#include <thread>
#include <vector>

#include "requests/graph_config_json.h"
#include "bench/percentile.h"
#include "bench/ring_neighbours.h"
#include "engine/allocator.h"
#include "ldpgraph/report_builder.h"
#include "ldpgraph/transport/uploader.h"
#include "ldpgraph/wire_format.h"
#include "service/daemon.h"
#include "store/postgres_report_store.h"
#include "store/sqlite_report_store.h"
#include "testbed/scratch_postgres.h"
#include "testbed/test_pki.h"
#include "util/flags.h"

namespace ldpgraph {
namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point since) { return std::chrono::duration<double>(Clock::now() - since).count(); }

// CPU seconds (user + system) of the calling thread, or of the whole process.
double CpuSeconds(int who) {
  rusage u{};
  getrusage(who, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

using Prepared = transport::OutgoingReport;

// One report per user, built by the SDK in parallel (seeded: the figures are repeatable).
Status Prepare(const GraphConfig& config, const TokenAuthority& tokens, std::uint32_t degree,
               std::vector<Prepared>* out) {
  auto builder = ReportBuilder::Create(config);
  if (!builder.ok()) return builder.status();
  const std::uint32_t n = config.num_users;
  out->assign(n, {});
  const unsigned workers = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> threads;
  std::atomic<bool> failed{false};
  for (unsigned w = 0; w < workers; ++w) {
    threads.emplace_back([&, w] {
      SeededRandomSource rng(1000 + w);
      std::vector<std::uint32_t> neighbours;
      for (std::uint32_t u = w; u < n; u += workers) {
        RingNeighbours(u, n, degree, &neighbours);
        UserData data;
        data.user_id = u;
        data.neighbours = Span<const std::uint32_t>(neighbours.data(), neighbours.size());
        auto report = (*builder)->Build(data, rng);
        if (!report.ok() || !EncodeReport(*report, &(*out)[u].report).ok()) {
          failed = true;
          return;
        }
        (*out)[u].token = tokens.Issue(config.graph_id, u);
      }
    });
  }
  for (auto& t : threads) t.join();
  return failed ? Status::Internal("building the benchmark's reports failed") : Status::Ok();
}

}  // namespace

Status RunIngestBench(const IngestBenchOptions& o, std::ostream& out, IngestBenchFigures* figures) {
  if (o.connections == 0 || o.reports < 2 || o.reports > 0xFFFFFFFFull) {
    return Status::InvalidArgument("need --connections >= 1 and 2 <= --reports < 2^32");
  }
  if (o.store != "sqlite" && o.store != "postgresql") {
    return Status::InvalidArgument("--store must be sqlite or postgresql");
  }
  if (o.daemons < 1 || o.daemons > 16 || (o.store == "sqlite" && o.daemons != 1)) {
    return Status::InvalidArgument("--daemons must be 1 on sqlite (one file, one daemon) and 1-16 on postgresql");
  }
  std::string dir = o.dir;
  const bool own_dir = dir.empty();
  if (own_dir) {
    char pattern[] = "/tmp/ldpgraph_bench_ingest_XXXXXX";
    if (!::mkdtemp(pattern)) return Status::Unavailable("cannot create a temporary directory");
    dir = pattern;
  }
  auto pki = WriteTestPki(dir);
  if (!pki.ok()) return pki.status();

  // The PostgreSQL database: the one named, or a scratch cluster's.
  std::unique_ptr<ScratchPostgres> scratch;
  std::string conninfo = o.store_connection, password = o.store_password;
  if (o.store == "postgresql" && conninfo.empty()) {
    Result<std::unique_ptr<ScratchPostgres>> started = ScratchPostgres::Start();
    if (!started.ok()) return started.status();
    scratch = std::move(started).value();
    Result<std::string> db = scratch->CreateDatabase("bench_ingest");
    if (!db.ok()) return db.status();
    conninfo = *db;
    password = scratch->password();
  }

  DaemonConfig config;
  config.listen_port = 0;
  config.threads = o.server_threads;
  config.certificate_file = pki->server_certificate;
  config.private_key_file = pki->server_key;
  config.store_backend = o.store;
  config.store_path = dir + "/store.db";
  config.store_connection = conninfo;
  config.store_password = password;
  config.state_dir = dir;
  config.secret = "bench-secret-0123456789abcdef0123456789";
  config.admin_token = "bench-admin-token-0123456789";
  config.per_address = {0, 0};  // every client is 127.0.0.1
  config.per_token = {0, 0};
  config.max_connections = o.connections + o.handshakes + 16;
  Logger logger("text", "warning");
  std::vector<std::unique_ptr<Daemon>> daemons;
  for (unsigned i = 0; i < o.daemons; ++i) {
    DaemonConfig mine = config;
    mine.state_dir = dir + "/daemon-" + std::to_string(i);
    mine.models_dir = mine.state_dir + "/models";
    mine.held_graphs_dir = mine.state_dir + "/held-graphs";
    auto daemon = Daemon::Start(mine, &logger);
    if (!daemon.ok()) return daemon.status();
    daemons.push_back(std::move(daemon).value());
  }
  Daemon& first = *daemons[0];  // creates the graph; the others read it from the store

  GraphConfig graph;
  graph.graph_id = 1;
  graph.num_users = static_cast<std::uint32_t>(o.reports);
  graph.edges.epsilon = o.epsilon;
  LDPGRAPH_RETURN_IF_ERROR(first.context().graphs.Create(graph));
  std::vector<Prepared> reports;
  auto prepare_start = Clock::now();
  LDPGRAPH_RETURN_IF_ERROR(Prepare(graph, first.context().tokens, o.degree, &reports));
  out << "prepare_seconds=" << Seconds(prepare_start) << "\n";

  transport::UploaderOptions uo;
  uo.server = {"127.0.0.1", first.port(), pki->ca_certificate, "", "", 5000, 30000};
  uo.retry = {50, 2000, 60000};
  // Connection c talks to daemon c mod daemons (a load balancer's round robin).
  const auto options_for = [&](unsigned c) {
    transport::UploaderOptions mine = uo;
    mine.server.port = daemons[c % daemons.size()]->port();
    return mine;
  };

  // Full handshakes: fresh clients, one GET each, from `connections` threads.
  {
    std::atomic<unsigned> next{0}, failures{0};
    const auto start = Clock::now();
    std::vector<std::thread> threads;
    for (unsigned t = 0; t < std::min(o.connections, o.handshakes); ++t) {
      threads.emplace_back([&] {
        while (next.fetch_add(1) < o.handshakes) {
          auto client = transport::HttpsClient::Create(uo.server);
          if (!client.ok() || !(*client)->Request("GET", "/healthz", "", "", "").ok()) ++failures;
        }
      });
    }
    for (auto& t : threads) t.join();
    const double seconds = Seconds(start);
    out << "handshakes=" << o.handshakes << "\nhandshake_failures=" << failures.load()
        << "\nhandshakes_per_s=" << std::fixed << std::setprecision(0) << o.handshakes / seconds << "\n"
        << std::defaultfloat << std::setprecision(6);
  }

  // The load: each connection a thread with its own uploader and users,
  // sent in rounds of `pipeline` reports (made before the clock starts).
  const std::size_t window = std::max(1u, o.pipeline);
  std::vector<std::vector<std::vector<Prepared>>> rounds(o.connections);
  for (unsigned c = 0; c < o.connections; ++c) {
    for (std::size_t u = c; u < reports.size(); u += o.connections) {
      if (rounds[c].empty() || rounds[c].back().size() == window) rounds[c].emplace_back();
      rounds[c].back().push_back(reports[u]);
    }
  }
  // Per report, from its window's write to its own answer; and per window, to its last answer.
  std::vector<std::vector<double>> latencies(o.connections), window_latencies(o.connections);
  std::atomic<std::uint64_t> acknowledged{0}, refused{0}, gave_up{0}, handshakes{0};
  std::mutex cpu_mu;
  double client_cpu = 0;
  const double process_cpu_before = CpuSeconds(RUSAGE_SELF);
  const auto start = Clock::now();
  std::vector<std::thread> threads;
  for (unsigned c = 0; c < o.connections; ++c) {
    threads.emplace_back([&, c] {
      auto uploader = transport::Uploader::Create(options_for(c));
      if (!uploader.ok()) {
        ++gave_up;
        return;
      }
      std::vector<double>& mine = latencies[c];
      mine.reserve(reports.size() / o.connections + 1);
      for (const std::vector<Prepared>& round : rounds[c]) {
        const auto t0 = Clock::now();
        std::vector<Result<transport::SendOutcome>> sent = (*uploader)->SendMany(round, window);
        const double round_ms = Seconds(t0) * 1e3;
        window_latencies[c].push_back(round_ms);
        for (const auto& outcome : sent) {
          // A report given up on counts with the whole round's time.
          mine.push_back(outcome.ok() ? 1e3 * std::chrono::duration<double>(outcome->answered - t0).count()
                                      : round_ms);
          if (!outcome.ok()) ++gave_up;
          else if (outcome->delivered) ++acknowledged;
          else ++refused;
        }
      }
      handshakes += (*uploader)->handshakes();
      std::lock_guard<std::mutex> lock(cpu_mu);
      client_cpu += CpuSeconds(RUSAGE_THREAD);
    });
  }
  for (auto& t : threads) t.join();
  const double seconds = Seconds(start);
  const double process_cpu = CpuSeconds(RUSAGE_SELF) - process_cpu_before;
  std::uint64_t commits = 0;
  double commit_seconds = 0;
  for (auto& d : daemons) {
    commits += d->metrics().store_commits.load();
    commit_seconds += d->metrics().commit_seconds.SumSeconds();
    d->Stop();
  }
  daemons.clear();

  // Count what is really in the store, through a fresh connection.
  Result<std::unique_ptr<Store>> store = Status::Internal("unset");
  if (o.store == "postgresql") {
    PostgresStoreOptions po;
    po.conninfo = conninfo;
    po.password = password;
    po.pool_size = 1;
    store = OpenPostgresReportStore(po);
  } else {
    SqliteStoreOptions so;
    so.path = config.store_path;
    store = OpenSqliteReportStore(so);
  }
  if (!store.ok()) return store.status();
  auto counts = (*store)->CountReports();
  if (!counts.ok()) return counts.status();
  const std::uint64_t stored = counts->empty() ? 0 : counts->front().reports;
  (*store)->Close();

  std::vector<double> all, windows;
  for (auto& v : latencies) all.insert(all.end(), v.begin(), v.end());
  for (auto& v : window_latencies) windows.insert(windows.end(), v.begin(), v.end());
  const std::uint64_t lost = acknowledged.load() > stored ? acknowledged.load() - stored : 0;
  out << "store=" << o.store << "\ndaemons=" << o.daemons << "\nconnections=" << o.connections
      << "\npipeline=" << window << "\nreports=" << o.reports
      << "\nacknowledged=" << acknowledged.load()
      << "\nrefused=" << refused.load() << "\ngave_up=" << gave_up.load() << "\nstored=" << stored
      << "\nlost=" << lost << "\nseconds=" << seconds << "\nreports_per_s=" << std::fixed << std::setprecision(0)
      << static_cast<double>(acknowledged.load()) / seconds << std::setprecision(2)
      << "\np50_ms=" << Percentile(all, 0.50) << "\np99_ms=" << Percentile(all, 0.99)
      << "\nmax_ms=" << *std::max_element(all.begin(), all.end()) << "\np99_window_ms=" << Percentile(windows, 0.99)
      << std::setprecision(1)
      << "\ncommits=" << commits << "\nreports_per_commit="
      << (commits ? static_cast<double>(acknowledged.load()) / static_cast<double>(commits) : 0.0)
      << std::setprecision(3)
      << "\ncommit_ms_mean=" << (commits ? 1e3 * commit_seconds / static_cast<double>(commits) : 0.0)
      << "\nstore_busy=" << commit_seconds / seconds / static_cast<double>(o.daemons) << std::setprecision(1)
      << "\nclient_cpu_us_per_report=" << 1e6 * client_cpu / static_cast<double>(o.reports)
      << "\nserver_cpu_us_per_report=" << 1e6 * (process_cpu - client_cpu) / static_cast<double>(o.reports)
      << std::setprecision(3) << "\ncpu_busy="  // the share of all cores the run used: 1 is CPU-bound
      << process_cpu / (seconds * std::max(1u, std::thread::hardware_concurrency())) << std::setprecision(1)
      << "\nload_handshakes=" << handshakes.load() << std::defaultfloat << std::setprecision(4)
      << "\nreport_bytes=" << reports[0].report.size() << "\nmalloc=" << MallocName()
      << "\npeak_rss_mb=" << PeakRssMb() << "\n";
  if (figures != nullptr) {
    figures->reports_per_s = static_cast<double>(acknowledged.load()) / seconds;
    figures->p50_ms = Percentile(all, 0.50);
    figures->p99_ms = Percentile(all, 0.99);
    figures->acknowledged = acknowledged.load();
    figures->stored = stored;
    figures->lost = lost;
  }
  if (own_dir) std::system(("rm -rf '" + dir + "'").c_str());
  return Status::Ok();
}

}  // namespace ldpgraph
