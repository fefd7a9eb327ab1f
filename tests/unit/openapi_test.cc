// docs/openapi.yaml against the router, both ways: its paths and methods are
// exactly the route table's (api/routes.h), every one of them reaches a
// handler (no 404 not_found, no 405), and every other method of a path gets
// 405 with the table's Allow. The router answers 404 for any path outside
// the table, so nothing is served that the description does not name.
#include <doctest/doctest.h>

#include <condition_variable>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "api/api.h"
#include "api/routes.h"
#include "jobs/training_jobs.h"
#include "store/held_graph_store.h"
#include "store/model_registry.h"
#include "store/sqlite_report_store.h"
#include "support/temp_dir.h"

namespace {

using ldpgraph::HttpRequest;
using ldpgraph::HttpResponse;
using Routes = std::map<std::string, std::set<std::string>>;  // path -> methods

const char kAdmin[] = "admin-token-for-tests";
const char* const kMethods[] = {"GET", "POST", "PUT", "DELETE", "PATCH"};

// The paths and methods of the description: the keys under "paths:" (two
// spaces in) and theirs (four spaces in) that are HTTP methods.
Routes Described(const std::string& file) {
  std::ifstream in(file);
  REQUIRE_MESSAGE(in, "cannot read " << file);
  Routes routes;
  bool in_paths = false;
  std::string current;
  for (std::string line; std::getline(in, line);) {
    if (line == "paths:") {
      in_paths = true;
      continue;
    }
    if (!in_paths || line.empty()) continue;
    if (line[0] != ' ') break;  // the next top-level key
    if (line.compare(0, 3, "  /") == 0) {
      current = line.substr(2, line.find(':') - 2);
      routes[current];
    } else if (line.compare(0, 4, "    ") == 0 && line[4] != ' ') {
      const std::string key = line.substr(4, line.find(':') - 4);
      for (const char* m : kMethods) {
        std::string lower = m;
        for (char& c : lower) c = static_cast<char>(c - 'A' + 'a');
        if (key == lower) routes[current].insert(m);
      }
    }
  }
  return routes;
}

Routes Table() {
  Routes routes;
  for (const ldpgraph::Route& r : ldpgraph::ApiRoutes()) routes[r.pattern].insert(r.methods.begin(), r.methods.end());
  return routes;
}

// A concrete path of a pattern: every {parameter} is 1.
std::string Concrete(const std::string& pattern) {
  std::string out;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '{') {
      out += '1';
      i = pattern.find('}', i);
    } else {
      out += pattern[i];
    }
  }
  return out;
}

// The API over a real store, model and held-graph folders, and a job worker.
struct Api {
  Api() : logger("json", "error") {
    ldpgraph::SqliteStoreOptions o;
    o.path = dir.path() + "/api.db";
    auto s = ldpgraph::OpenSqliteReportStore(o);
    REQUIRE(s.ok());
    store = std::move(*s);
    auto tokens = ldpgraph::TokenAuthority::Create("secret-for-tests-0123456789abcdef0123");
    REQUIRE(tokens.ok());
    ctx = std::make_unique<ldpgraph::ServiceContext>(store.get(), *tokens, kAdmin, ldpgraph::RateLimit{0, 0},
                                                     ldpgraph::RateLimit{0, 0}, &metrics, &logger);
    auto m = ldpgraph::ModelRegistry::Open(dir.path() + "/models");
    auto h = ldpgraph::HeldGraphStore::Open(dir.path() + "/held");
    REQUIRE(m.ok());
    REQUIRE(h.ok());
    models = std::move(*m);
    held = std::move(*h);
    jobs = std::make_unique<ldpgraph::TrainingJobs>(store.get(), models.get(), &metrics, &logger, nullptr);
    ctx->models = models.get();
    ctx->held_graphs = held.get();
    ctx->jobs = jobs.get();
  }
  ~Api() {
    jobs.reset();
    store->Close();
  }

  HttpResponse Call(const std::string& method, const std::string& target) {
    HttpRequest r;
    r.method = method;
    r.target = target;
    r.body = method == "GET" || method == "DELETE" ? "" : "{}";
    r.remote_address = "10.0.0.1";
    r.authorization = std::string("Bearer ") + kAdmin;
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

  ldpgraph::testing::TempDir dir;
  ldpgraph::Logger logger;
  ldpgraph::Metrics metrics;
  std::unique_ptr<ldpgraph::Store> store;
  std::unique_ptr<ldpgraph::ServiceContext> ctx;
  std::unique_ptr<ldpgraph::ModelRegistry> models;
  std::unique_ptr<ldpgraph::HeldGraphStore> held;
  std::unique_ptr<ldpgraph::TrainingJobs> jobs;
};

std::string ErrorCode(const HttpResponse& r) {
  const nlohmann::json body = nlohmann::json::parse(r.body, nullptr, false);
  return body.is_object() && body.contains("error") ? body["error"].get<std::string>() : "";
}

std::string Header(const HttpResponse& r, const std::string& name) {
  for (const auto& [key, value] : r.headers) {
    if (key == name) return value;
  }
  return "";
}

}  // namespace

TEST_CASE("OpenApi.DescribesExactlyTheRoutesTheDaemonServes") {
  const Routes described = Described(LDPGRAPH_OPENAPI);
  const Routes table = Table();
  REQUIRE(described.size() >= 20);
  // (No structured bindings here: doctest's INFO captures its arguments in a lambda.)
  for (const auto& entry : described) {
    const std::string& path = entry.first;
    INFO(path);
    REQUIRE_MESSAGE(table.count(path), "described but not routed");
    CHECK(table.at(path) == entry.second);
  }
  for (const auto& entry : table) {
    const std::string& path = entry.first;
    INFO(path);
    CHECK_MESSAGE(described.count(path), "routed but not described in docs/openapi.yaml");
  }
}

TEST_CASE("OpenApi.EveryDescribedRouteReachesItsHandlerAndNoOtherMethodDoes") {
  Api api;
  for (const auto& [pattern, methods] : Described(LDPGRAPH_OPENAPI)) {
    const std::string path = Concrete(pattern);
    std::string allow;
    for (const ldpgraph::Route& r : ldpgraph::ApiRoutes()) {
      if (r.pattern != pattern) continue;
      for (const std::string& m : r.methods) allow += (allow.empty() ? "" : ", ") + m;
    }
    for (const char* method : kMethods) {
      INFO(method << " " << path);
      const HttpResponse r = api.Call(method, path);
      if (methods.count(method)) {
        CHECK(r.status != 405);
        CHECK_FALSE((r.status == 404 && ErrorCode(r) == "not_found"));
      } else {
        CHECK(r.status == 405);
        CHECK(Header(r, "Allow") == allow);
      }
    }
  }
  // A path outside the table: 404, for devices and for the admin.
  CHECK(api.Call("GET", "/v1/graphs/1/extra").status == 404);
  CHECK(api.Call("GET", "/v1/admin/nothing").status == 404);
  CHECK(api.Call("GET", "/v1/admin/jobs/").status == 404);  // an empty id names nothing
}
