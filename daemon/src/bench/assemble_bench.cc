#include "bench/assemble_bench.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <mutex>

#include "requests/graph_config_json.h"
#include "assembly/graph_assembler.h"
#include "bench/ring_neighbours.h"
#include "ldpgraph/report_builder.h"
#include "ldpgraph/wire_format.h"
#include "store/postgres_report_store.h"
#include "store/sqlite_report_store.h"
#include "testbed/scratch_postgres.h"
#include "util/flags.h"

namespace ldpgraph {
namespace {

using Clock = std::chrono::steady_clock;

GraphConfig BenchGraph(const AssembleBenchOptions& o) {
  GraphConfig config;
  config.graph_id = 1;
  config.num_users = o.users;
  config.edges.mechanism = EdgeMechanism::kDprr;
  config.edges.epsilon = o.epsilon;
  config.label.enabled = true;
  config.label.classes = 2;
  return config;
}

// Where the benchmark's reports live: a SQLite file or a PostgreSQL database.
struct BenchStore {
  std::string backend, path, conninfo, password;

  Result<std::unique_ptr<Store>> Open() const {
    if (backend == "postgresql") {
      PostgresStoreOptions o;
      o.conninfo = conninfo;
      o.password = password;
      o.pool_size = 1;
      return OpenPostgresReportStore(o);
    }
    SqliteStoreOptions o;
    o.path = path;
    return OpenSqliteReportStore(o);
  }
};

// Builds and stores one report per user; runs in the child process.
Status FillStore(const AssembleBenchOptions& o, const BenchStore& where) {
  const GraphConfig config = BenchGraph(o);
  auto builder = ReportBuilder::Create(config);
  if (!builder.ok()) return builder.status();
  auto store = where.Open();
  if (!store.ok()) return store.status();
  LDPGRAPH_RETURN_IF_ERROR((*store)->CreateGraph({config.graph_id, GraphConfigToJson(config), 0}));

  std::mutex mu;
  std::condition_variable cv;
  std::uint64_t answered = 0;
  std::atomic<bool> failed{false};
  SeededRandomSource rng(7);
  std::vector<std::uint32_t> neighbours;
  const std::uint32_t n = o.users;
  for (std::uint32_t u = 0; u < n; ++u) {
    RingNeighbours(u, n, o.degree, &neighbours);
    UserData data;
    data.user_id = u;
    data.neighbours = Span<const std::uint32_t>(neighbours.data(), neighbours.size());
    data.has_label = true;
    data.label = u % 2;
    Result<Report> report = (*builder)->Build(data, rng);
    if (!report.ok()) return report.status();
    ReportRecord record;
    record.graph_id = config.graph_id;
    record.user_id = u;
    record.report_id = report->report_id;
    LDPGRAPH_RETURN_IF_ERROR(EncodeReport(*report, &record.bytes));
    (*store)->Insert(std::move(record), [&](Result<InsertOutcome> outcome) {
      if (!outcome.ok() || *outcome != InsertOutcome::kStored) failed = true;
      std::lock_guard<std::mutex> lock(mu);
      ++answered;
      cv.notify_one();
    });
    if (u % 65536 == 65535) {  // keep the queue bounded
      std::unique_lock<std::mutex> lock(mu);
      cv.wait(lock, [&] { return answered + 65536 > u; });
    }
  }
  {
    std::unique_lock<std::mutex> lock(mu);
    cv.wait(lock, [&] { return answered == n; });
  }
  (*store)->Close();
  return failed ? Status::Internal("the store refused a benchmark report") : Status::Ok();
}

}  // namespace

Status RunAssembleBench(const AssembleBenchOptions& o, std::ostream& out) {
  if (o.users < 2) return Status::InvalidArgument("need --users >= 2");
  if (o.store != "sqlite" && o.store != "postgresql") {
    return Status::InvalidArgument("--store must be sqlite or postgresql");
  }
  if (o.degree >= o.users) return Status::InvalidArgument("--degree must be below --users");
  std::string dir = o.dir;
  const bool own_dir = dir.empty();
  if (own_dir) {
    char pattern[] = "/tmp/ldpgraph_bench_assemble_XXXXXX";
    if (!::mkdtemp(pattern)) return Status::Unavailable("cannot create a temporary directory");
    dir = pattern;
  }
  BenchStore where{o.store, dir + "/store.db", o.store_connection, o.store_password};
  std::unique_ptr<ScratchPostgres> scratch;  // the parent's: the child only talks to it
  if (o.store == "postgresql" && where.conninfo.empty()) {
    Result<std::unique_ptr<ScratchPostgres>> started = ScratchPostgres::Start();
    if (!started.ok()) return started.status();
    scratch = std::move(started).value();
    Result<std::string> db = scratch->CreateDatabase("bench_assemble");
    if (!db.ok()) return db.status();
    where.conninfo = *db;
    where.password = scratch->password();
  }

  // The store is filled by a child so that its memory is not this process's.
  const auto fill_start = Clock::now();
  std::fflush(nullptr);
  const pid_t child = ::fork();
  if (child < 0) return Status::Unavailable("fork failed");
  if (child == 0) {
    Status s = FillStore(o, where);
    if (!s.ok()) std::fprintf(stderr, "ldpgraph bench assemble: filling the store: %s\n", s.ToString().c_str());
    std::_Exit(s.ok() ? 0 : 1);
  }
  int wstatus = 0;
  if (::waitpid(child, &wstatus, 0) != child || !WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0) {
    return Status::Internal("filling the benchmark store failed");
  }
  const double fill_seconds = std::chrono::duration<double>(Clock::now() - fill_start).count();

  auto store = where.Open();
  if (!store.ok()) return store.status();
  SeededRandomSource rng(1);
  Result<AssembledGraph> graph = AssembleGraph(BenchGraph(o), store->get(), o.rule, rng);
  (*store)->Close();
  if (!graph.ok()) return graph.status();
  std::uint64_t labelled = 0;
  for (int y : graph->labels) labelled += y >= 0;
  out << "store=" << o.store << "\nusers=" << o.users << "\nreporters=" << graph->reporters << "\nlabelled=" << labelled
      << "\nreported_entries=" << graph->reported_entries << "\nsymmetrisation=" << SymmetrisationName(o.rule)
      << "\nedges=" << graph->adjacency.num_entries() << "\nfill_seconds=" << fill_seconds
      << "\nassemble_seconds=" << graph->seconds << "\npeak_rss_mb=" << PeakRssMb() << "\n";
  if (own_dir) {
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
  }
  return Status::Ok();
}

}  // namespace ldpgraph
