// The Api without the network, over a real SQLite store: routing, admin
// auth, and report answers, including batches. (The integration tier runs
// the same through TLS; this tier also runs under the sanitizers.)
#include <doctest/doctest.h>

#include <condition_variable>
#include <mutex>

#include "api/api.h"
#include "ldpgraph/report_builder.h"
#include "ldpgraph/wire_format.h"
#include "store/sqlite_report_store.h"
#include "support/temp_dir.h"

using ldpgraph::HttpRequest;
using ldpgraph::HttpResponse;
using ldpgraph::testing::TempDir;

namespace {

const char kAdmin[] = "admin-token-for-tests";
const char kSecret[] = "secret-for-tests-0123456789abcdef0123";

struct Fixture {
  explicit Fixture(ldpgraph::RateLimit per_address = {0, 0}) : logger("json", "error") {
    ldpgraph::SqliteStoreOptions o;
    o.path = dir.path() + "/api.db";
    auto s = ldpgraph::OpenSqliteReportStore(o);
    REQUIRE(s.ok());
    store = std::move(*s);
    auto tokens = ldpgraph::TokenAuthority::Create(kSecret);
    REQUIRE(tokens.ok());
    ctx = std::make_unique<ldpgraph::ServiceContext>(store.get(), *tokens, kAdmin, ldpgraph::RateLimit{0, 0},
                                                     per_address, &metrics, &logger);
  }
  ~Fixture() { store->Close(); }

  HttpResponse Call(const std::string& method, const std::string& target, const std::string& body = "",
                    const std::string& bearer = "") {
    HttpRequest r;
    r.method = method;
    r.target = target;
    r.body = body;
    r.remote_address = "10.0.0.1";
    if (!bearer.empty()) r.authorization = "Bearer " + bearer;
    std::mutex mu;
    std::condition_variable cv;
    bool done = false;
    HttpResponse response;
    ldpgraph::HandleRequest(*ctx, r, [&](HttpResponse answer) {
      std::lock_guard<std::mutex> lock(mu);
      response = std::move(answer);
      done = true;
      cv.notify_one();
    });
    std::unique_lock<std::mutex> lock(mu);
    cv.wait(lock, [&] { return done; });
    return response;
  }

  TempDir dir;
  ldpgraph::Logger logger;
  ldpgraph::Metrics metrics;
  std::unique_ptr<ldpgraph::Store> store;
  std::unique_ptr<ldpgraph::ServiceContext> ctx;
};

std::string Report(std::uint32_t user, std::uint64_t seed) {
  ldpgraph::GraphConfig c;
  c.graph_id = 2;
  c.num_users = 10;
  c.edges.mechanism = ldpgraph::EdgeMechanism::kRr;
  c.edges.epsilon = 3;
  auto builder = ldpgraph::ReportBuilder::Create(c);
  REQUIRE(builder.ok());
  ldpgraph::SeededRandomSource rng(seed);
  std::vector<std::uint32_t> neighbours = {(user + 1) % 10};
  ldpgraph::UserData d;
  d.user_id = user;
  d.neighbours = ldpgraph::Span<const std::uint32_t>(neighbours.data(), 1);
  auto r = (*builder)->Build(d, rng);
  REQUIRE(r.ok());
  std::vector<std::uint8_t> bytes;
  REQUIRE(ldpgraph::EncodeReport(*r, &bytes).ok());
  return std::string(bytes.begin(), bytes.end());
}

}  // namespace

TEST_CASE("Api.RoutesAndAdminAuth") {
  Fixture f;
  CHECK(f.Call("GET", "/healthz").status == 200);
  CHECK(f.Call("POST", "/healthz").status == 405);
  CHECK(f.Call("GET", "/metrics").content_type.find("text/plain") == 0);
  CHECK(f.Call("GET", "/v1/graphs/2").status == 404);
  CHECK(f.Call("GET", "/v1/graphs/99999999999999999999999").status == 400);
  CHECK(f.Call("GET", "/v1/admin/graphs").status == 401);
  CHECK(f.Call("GET", "/v1/admin/graphs", "", "nope").status == 401);
  CHECK(f.Call("PUT", "/v1/admin/graphs", "", kAdmin).status == 405);
  CHECK(f.Call("GET", "/v1/admin/else", "", kAdmin).status == 404);
  const std::string graph = R"({"graph_id": 2, "num_users": 10, "edges": {"mechanism": "rr", "epsilon": 3}})";
  CHECK(f.Call("POST", "/v1/admin/graphs", graph, kAdmin).status == 201);
  CHECK(f.Call("GET", "/v1/graphs/2?x=1").status == 200);
  CHECK(f.Call("POST", "/v1/admin/graphs/2/tokens", R"({"first": 0, "count": 100001})", kAdmin).status == 400);
  CHECK(f.Call("POST", "/v1/admin/graphs/x/tokens", R"({"users": [1]})", kAdmin).status == 400);
  // One strict id syntax on both paths: no sign, no space, nothing past 2^64 - 1.
  for (const char* id : {"-1", "+2", " 2", "18446744073709551616"}) {
    INFO(id);
    CHECK(f.Call("POST", std::string("/v1/admin/graphs/") + id + "/tokens", R"({"users": [1]})", kAdmin).status == 400);
    CHECK(f.Call("GET", std::string("/v1/graphs/") + id).status == 400);
  }
  CHECK(f.Call("GET", "/v1/graphs/18446744073709551615").status == 404);
  CHECK(f.Call("GET", "/v1/admin/graphs/2/tokens", "", kAdmin).status == 405);
  CHECK(f.Call("GET", "/v1/reports").status == 405);
  f.ctx->draining = true;
  CHECK(f.Call("GET", "/healthz").status == 503);
  auto drained = f.Call("POST", "/v1/reports", Report(1, 1), f.ctx->tokens.Issue(2, 1));
  CHECK(drained.status == 503);
}

// A device learns the open round from the graph's policy, in JSON and in
// the header that also comes with the binary form.
TEST_CASE("Api.AGraphInRoundsShowsItsOpenRound") {
  Fixture f;
  const std::string graph =
      R"({"graph_id": 4, "num_users": 10, "edges": {"mechanism": "rr", "epsilon": 3}, "rounds": {"history": 2}})";
  const HttpResponse created = f.Call("POST", "/v1/admin/graphs", graph, kAdmin);
  REQUIRE(created.status == 201);
  CHECK(created.body.find("\"rounds\":{\"history\":2}") != std::string::npos);
  auto round_header = [](const HttpResponse& r) {
    for (const auto& [name, value] : r.headers) {
      if (name == "Ldpgraph-Round") return value;
    }
    return std::string();
  };
  HttpResponse json = f.Call("GET", "/v1/graphs/4");
  CHECK(json.body.find("\"open\":1") != std::string::npos);
  CHECK(round_header(json) == "1");
  CHECK(f.Call("POST", "/v1/admin/graphs/4/rounds", "", kAdmin).status == 201);
  HttpRequest binary;
  binary.method = "GET";
  binary.target = "/v1/graphs/4";
  binary.accept = "application/x-ldpgraph-config";
  HttpResponse answer;
  ldpgraph::HandleRequest(*f.ctx, binary, [&](HttpResponse r) { answer = std::move(r); });
  CHECK(answer.content_type == "application/x-ldpgraph-config");
  CHECK(round_header(answer) == "2");
  // A graph collected once has no round.
  REQUIRE(f.Call("POST", "/v1/admin/graphs", R"({"graph_id": 5, "num_users": 10, "edges": {"mechanism": "rr", "epsilon": 3}})",
                 kAdmin).status == 201);
  CHECK(round_header(f.Call("GET", "/v1/graphs/5")).empty());
  CHECK(f.Call("GET", "/v1/graphs/5").body.find("rounds") == std::string::npos);
}

TEST_CASE("Api.GwQueriesGoToTheQueryWorkerOnceAuthorized") {
  Fixture f;
  const std::string pair = R"({"a": 1, "b": 2})";
  {
    ldpgraph::QueryWorker full(0);  // every query it is given is refused as busy
    f.ctx->queries = &full;
    CHECK(f.Call("POST", "/v1/admin/gw", pair, "nope").status == 401);  // refused before the queue
    const HttpResponse busy = f.Call("POST", "/v1/admin/gw/nearest", R"({"graph": 1})", kAdmin);
    CHECK(busy.status == 503);
    CHECK(busy.reason == "busy");
    CHECK(f.Call("GET", "/v1/admin/graphs", "", kAdmin).status == 200);  // other routes answer in place
  }
  ldpgraph::QueryWorker worker;
  f.ctx->queries = &worker;
  CHECK(f.Call("POST", "/v1/admin/gw", pair, kAdmin).status == 404);  // answered by the worker
  CHECK(f.Call("GET", "/v1/admin/gw", "", kAdmin).status == 405);
  f.ctx->queries = nullptr;
}

TEST_CASE("Api.ReportsAndBatches") {
  Fixture f;
  const std::string graph = R"({"graph_id": 2, "num_users": 10, "edges": {"mechanism": "rr", "epsilon": 3}})";
  REQUIRE(f.Call("POST", "/v1/admin/graphs", graph, kAdmin).status == 201);
  const std::string token = f.ctx->tokens.Issue(2, 4);
  CHECK(f.Call("POST", "/v1/reports", Report(4, 1)).status == 401);
  auto stored = f.Call("POST", "/v1/reports", Report(4, 1), token);
  CHECK(stored.status == 200);
  CHECK(stored.body.find("\"outcome\":\"stored\"") != std::string::npos);
  CHECK(f.Call("POST", "/v1/reports", Report(4, 1), token).body.find("duplicate") != std::string::npos);
  CHECK(f.Call("POST", "/v1/reports", Report(4, 2), token).status == 409);
  CHECK(f.Call("POST", "/v1/reports", Report(5, 1), token).status == 403);

  // A batch of equal answers takes their status; the answers keep the order.
  std::vector<std::vector<std::uint8_t>> items;
  for (std::uint64_t seed : {1, 1}) {
    const std::string r = Report(4, seed);
    items.emplace_back(r.begin(), r.end());
  }
  std::vector<std::uint8_t> batch;
  REQUIRE(ldpgraph::EncodeBatch(items, &batch).ok());
  auto both = f.Call("POST", "/v1/reports", std::string(batch.begin(), batch.end()), token);
  CHECK(both.status == 200);
  CHECK(both.body.find("\"results\":[") != std::string::npos);
  std::vector<std::uint8_t> truncated(batch.begin(), batch.end() - 1);
  CHECK(f.Call("POST", "/v1/reports", std::string(truncated.begin(), truncated.end()), token).status == 400);
  CHECK(f.metrics.reports_stored.load() == 1);
  CHECK(f.metrics.reports_duplicate.load() == 3);
  CHECK(f.metrics.reports_rejected[static_cast<int>(ldpgraph::RejectReason::kConflict)].load() == 1);
  CHECK(f.metrics.reports_rejected[static_cast<int>(ldpgraph::RejectReason::kForbidden)].load() == 1);
}

TEST_CASE("Api.PerAddressLimitAnswers429") {
  Fixture f(ldpgraph::RateLimit{0.001, 2});
  const std::string graph = R"({"graph_id": 2, "num_users": 10, "edges": {"mechanism": "rr", "epsilon": 3}})";
  REQUIRE(f.Call("POST", "/v1/admin/graphs", graph, kAdmin).status == 201);
  // Two users behind one address: the address's burst is 2, whoever sends.
  CHECK(f.Call("POST", "/v1/reports", Report(1, 1), f.ctx->tokens.Issue(2, 1)).status == 200);
  CHECK(f.Call("POST", "/v1/reports", Report(2, 1), f.ctx->tokens.Issue(2, 2)).status == 200);
  auto limited = f.Call("POST", "/v1/reports", Report(3, 1), f.ctx->tokens.Issue(2, 3));
  CHECK(limited.status == 429);
  bool retry_after = false;
  for (const auto& [name, value] : limited.headers) retry_after = retry_after || (name == "Retry-After" && value == "1000");
  CHECK(retry_after);
}
