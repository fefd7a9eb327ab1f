// Graph assembly from a real SQLite store: rows as reported, the three
// symmetrisation rules, users who sent nothing, rectified features, noisy
// labels, and a precise error for stored bytes that are not a report.
#include "assembly/graph_assembler.h"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>

#include "requests/graph_config_json.h"
#include "graph/disclosed_lists.h"
#include "ldpgraph/report_builder.h"
#include "ldpgraph/wire_format.h"
#include "store/sqlite_report_store.h"
#include "support/temp_dir.h"

using namespace ldpgraph;
using ldpgraph::testing::TempDir;

namespace {

CsrGraph Rows(const std::vector<std::vector<std::uint32_t>>& rows) { return CsrGraph::FromRows(rows); }

std::vector<std::uint32_t> Row(const CsrGraph& g, std::uint32_t u) {
  auto r = g.neighbours(u);
  return {r.begin(), r.end()};
}

void InsertSync(Store& store, ReportRecord r) {
  std::mutex mu;
  std::condition_variable cv;
  bool done = false;
  store.Insert(std::move(r), [&](Result<InsertOutcome> outcome) {
    CHECK(outcome.ok());
    std::lock_guard<std::mutex> lock(mu);
    done = true;
    cv.notify_one();
  });
  std::unique_lock<std::mutex> lock(mu);
  cv.wait(lock, [&] { return done; });
}

// A graph of 6 users whose edges are sent without privacy (so the rows are
// known), with 3 multi-bit features and 3 label classes.
GraphConfig SmallGraph() {
  GraphConfig c;
  c.graph_id = 42;
  c.num_users = 6;
  c.edges.mechanism = EdgeMechanism::kNone;
  c.features.enabled = true;
  c.features.params.dims = 3;
  c.features.params.epsilon = 2.0;
  c.label.enabled = true;
  c.label.classes = 3;
  c.label.epsilon = 1.0;
  return c;
}

struct Fixture {
  TempDir dir;
  std::unique_ptr<Store> store;
  GraphConfig config = SmallGraph();

  Fixture() {
    SqliteStoreOptions o;
    o.path = dir.path() + "/store.db";
    auto opened = OpenSqliteReportStore(o);
    REQUIRE(opened.ok());
    store = std::move(opened).value();
    REQUIRE(store->CreateGraph({config.graph_id, GraphConfigToJson(config), 0}).ok());
  }
  ~Fixture() { store->Close(); }

  void Send(std::uint32_t user, std::vector<std::uint32_t> friends, std::uint32_t label) {
    auto builder = ReportBuilder::Create(config);
    REQUIRE(builder.ok());
    const std::vector<double> x = {0.1, 0.5, 0.9};
    UserData d;
    d.user_id = user;
    d.neighbours = Span<const std::uint32_t>(friends.data(), friends.size());
    d.features = Span<const double>(x.data(), x.size());
    d.has_label = true;
    d.label = label;
    SeededRandomSource rng(user);
    Result<Report> report = (*builder)->Build(d, rng);
    REQUIRE(report.ok());
    ReportRecord record;
    record.graph_id = config.graph_id;
    record.user_id = user;
    record.report_id = report->report_id;
    REQUIRE(EncodeReport(*report, &record.bytes).ok());
    InsertSync(*store, std::move(record));
  }
};

}  // namespace

TEST_CASE("Symmetrise.NoneOrAnd") {
  // 0 lists 1 and 2; 1 lists 0; 2 lists nobody; 3 lists 2.
  const CsrGraph g = Rows({{1, 2}, {0}, {}, {2}});
  const CsrGraph none = Symmetrise(g, Symmetrisation::kNone);
  CHECK(none.targets() == g.targets());
  const CsrGraph any = Symmetrise(g, Symmetrisation::kOr);
  CHECK(Row(any, 0) == std::vector<std::uint32_t>{1, 2});
  CHECK(Row(any, 1) == std::vector<std::uint32_t>{0});
  CHECK(Row(any, 2) == std::vector<std::uint32_t>{0, 3});
  CHECK(Row(any, 3) == std::vector<std::uint32_t>{2});
  const CsrGraph both = Symmetrise(g, Symmetrisation::kAnd);
  CHECK(Row(both, 0) == std::vector<std::uint32_t>{1});
  CHECK(Row(both, 1) == std::vector<std::uint32_t>{0});
  CHECK(both.degree(2) == 0);
  CHECK(both.degree(3) == 0);
  CHECK(ParseSymmetrisation("or").ok());
  CHECK(ParseSymmetrisation("both").status().code() == StatusCode::kInvalidArgument);
}

TEST_CASE("DisclosedLists.EdgesTouchingANonPrivateUserComeFromHerList") {
  // Users 1 and 3 disclosed their true lists; 0, 2 and 4 sent noisy ones.
  // 0 claims 1 (1's list denies it) and 2; 2 claims 4 and misses 3 (3's
  // list names 2); 4 claims 3 (3's list denies it).
  const CsrGraph g = Rows({{1, 2}, {2}, {0, 4}, {2}, {3}});
  const CsrGraph out = UseDisclosedLists(g, {false, true, false, true, false});
  CHECK(Row(out, 0) == std::vector<std::uint32_t>{2});        // private entries kept, 1 dropped
  CHECK(Row(out, 1) == std::vector<std::uint32_t>{2});        // a disclosed list as it is
  CHECK(Row(out, 2) == std::vector<std::uint32_t>{0, 1, 3, 4});  // 1 and 3 named 2
  CHECK(Row(out, 3) == std::vector<std::uint32_t>{2});
  CHECK(out.degree(4) == 0);
  // Then the OR rule (dprr-disclosed-or): symmetric, every pair that
  // touches 1 or 3 as their lists say, and the private pairs either claimed.
  const CsrGraph both_ways = Symmetrise(out, Symmetrisation::kOr);
  CHECK(Row(both_ways, 0) == std::vector<std::uint32_t>{2});
  CHECK(Row(both_ways, 1) == std::vector<std::uint32_t>{2});
  CHECK(Row(both_ways, 2) == std::vector<std::uint32_t>{0, 1, 3, 4});
  CHECK(Row(both_ways, 3) == std::vector<std::uint32_t>{2});
  CHECK(Row(both_ways, 4) == std::vector<std::uint32_t>{2});
  // Nobody disclosed: the graph as it is.
  CHECK(UseDisclosedLists(g, std::vector<bool>(5, false)).targets() == g.targets());
  // Everybody disclosed: the lists themselves.
  CHECK(UseDisclosedLists(g, std::vector<bool>(5, true)).targets() == g.targets());
}

TEST_CASE("Assembly.RowsAsReportedMissingUsersIsolated") {
  Fixture f;
  f.Send(0, {1, 3}, 2);
  f.Send(1, {0}, 1);
  f.Send(3, {5}, 0);  // users 2, 4 and 5 send nothing
  SeededRandomSource rng(1);
  Result<AssembledGraph> g = AssembleGraph(f.config, f.store.get(), Symmetrisation::kNone, rng);
  REQUIRE(g.ok());
  CHECK(g->adjacency.num_nodes() == 6);
  CHECK(g->reporters == 3);
  CHECK(g->reported_entries == 4);
  CHECK(Row(g->adjacency, 0) == std::vector<std::uint32_t>{1, 3});
  CHECK(Row(g->adjacency, 3) == std::vector<std::uint32_t>{5});
  CHECK(g->adjacency.degree(5) == 0);  // listed by 3, but reports are rows
  REQUIRE(g->features.is_factored());
  const Matrix features = g->features.ToDense();
  for (std::uint32_t u : {2u, 4u, 5u}) {
    CHECK(g->adjacency.degree(u) == 0);
    CHECK(g->labels[u] == -1);
    CHECK(features(u, 0) == doctest::Approx(0.5));  // the midpoint of [0, 1]
  }
  for (std::uint32_t u : {0u, 1u, 3u}) CHECK((g->labels[u] >= 0 && g->labels[u] < 3));
  // The multi-bit rectifier: sampled dimensions are far outside [0, 1], the
  // others sit at the midpoint; at epsilon 2 one dimension is sampled.
  REQUIRE(features.cols() == 3);
  CHECK(g->features.factored().sparse.nnz() == 3);  // one dimension from each of the 3 reporters
  int off_midpoint = 0;
  for (int j = 0; j < 3; ++j) off_midpoint += std::abs(features(0, j) - 0.5f) > 1.0f;
  CHECK(off_midpoint == 1);

  Result<AssembledGraph> any = AssembleGraph(f.config, f.store.get(), Symmetrisation::kOr, rng);
  REQUIRE(any.ok());
  CHECK(Row(any->adjacency, 5) == std::vector<std::uint32_t>{3});
  Result<AssembledGraph> both = AssembleGraph(f.config, f.store.get(), Symmetrisation::kAnd, rng);
  REQUIRE(both.ok());
  CHECK(Row(both->adjacency, 0) == std::vector<std::uint32_t>{1});
}

TEST_CASE("Assembly.CorruptStoredReportNamesTheUser") {
  Fixture f;
  f.Send(0, {1}, 0);
  ReportRecord junk;
  junk.graph_id = f.config.graph_id;
  junk.user_id = 4;
  junk.report_id.fill(9);
  junk.bytes = {1, 2, 3};
  InsertSync(*f.store, junk);
  SeededRandomSource rng(1);
  Result<AssembledGraph> g = AssembleGraph(f.config, f.store.get(), Symmetrisation::kNone, rng);
  CHECK(g.status().code() == StatusCode::kDataLoss);
  CHECK(g.status().message().find("user 4") != std::string::npos);
}

// Issue 66, defect 4: cancelling a job did not stop its assembly, which for
// a graph of 2^32 - 1 users appended rows until the OOM killer came.
// Assembly looks at the job's flag at every report and every 2^16 rows.
TEST_CASE("Assembly.StopsWhenItsJobIsCancelled") {
  Fixture f;
  f.Send(0, {1}, 1);
  std::atomic<bool> cancel{true};
  SeededRandomSource rng(1);
  Result<AssembledGraph> stopped = AssembleGraph(f.config, f.store.get(), Symmetrisation::kNone, rng, nullptr, &cancel);
  REQUIRE_FALSE(stopped.ok());
  CHECK(stopped.status().message() == AssemblyCancelled().message());
  // A graph of 2^24 users and no report, cancelled: it stops within a
  // block of rows instead of appending all 16 million.
  GraphConfig wide = f.config;
  wide.graph_id = 99;
  wide.num_users = 1u << 24;
  wide.features.enabled = false;
  REQUIRE(f.store->CreateGraph({wide.graph_id, GraphConfigToJson(wide), 0}).ok());
  const auto start = std::chrono::steady_clock::now();
  Result<AssembledGraph> big = AssembleGraph(wide, f.store.get(), Symmetrisation::kNone, rng, nullptr, &cancel);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK_FALSE(big.ok());
  CHECK(seconds < 2);
  cancel = false;
  CHECK(AssembleGraph(f.config, f.store.get(), Symmetrisation::kNone, rng, nullptr, &cancel).ok());
}
