// libFuzzer target: arbitrary bytes as an HTTP request to the daemon's Api
// (Beast's parser with the server's limits, then routing, auth, batch
// splitting, report decoding, policy checks and the store). Must never
// crash, and every request gets exactly one answer with a known status.
// The seed corpus (corpus/request) holds valid user and admin requests, so
// the fuzzer starts past authentication.
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>

#include "api/api.h"
#include "requests/graph_config_json.h"
#include "net/http_parse.h"
#include "store/sqlite_report_store.h"

namespace {

struct World {
  ldpgraph::Logger logger{"json", "error"};
  ldpgraph::Metrics metrics;
  std::unique_ptr<ldpgraph::Store> store;
  std::unique_ptr<ldpgraph::ServiceContext> ctx;
};

World* MakeWorld() {
  auto* w = new World;
  char dir[] = "/tmp/ldpgraph_request_fuzz_XXXXXX";
  if (!::mkdtemp(dir)) std::abort();
  ldpgraph::SqliteStoreOptions o;
  o.path = std::string(dir) + "/fuzz.db";
  auto store = ldpgraph::OpenSqliteReportStore(o);
  if (!store.ok()) std::abort();
  w->store = std::move(*store);
  auto tokens = ldpgraph::TokenAuthority::Create("fuzz-secret-0123456789abcdef0123456789");
  if (!tokens.ok()) std::abort();
  w->ctx = std::make_unique<ldpgraph::ServiceContext>(w->store.get(), *tokens, "fuzz-admin-token",
                                                      ldpgraph::RateLimit{0, 0}, ldpgraph::RateLimit{0, 0},
                                                      &w->metrics, &w->logger);
  // Graph 1: what the seed reports are made for.
  auto config = ldpgraph::GraphConfigFromJson(
      R"({"graph_id": 1, "num_users": 50, "edges": {"mechanism": "dprr", "epsilon": 1}, "label": {"classes": 2, "epsilon": 1}})");
  if (!config.ok() || !w->ctx->graphs.Create(*config).ok()) std::abort();
  return w;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static World* world = MakeWorld();
  auto request = ldpgraph::ParseHttpRequest(std::string(reinterpret_cast<const char*>(data), size), 1 << 16);
  if (!request.ok()) return 0;
  std::mutex mu;
  std::condition_variable cv;
  int answers = 0, status = 0;
  ldpgraph::HandleRequest(*world->ctx, *request, [&](ldpgraph::HttpResponse response) {
    std::lock_guard<std::mutex> lock(mu);
    ++answers;
    status = response.status;
    cv.notify_one();
  });
  std::unique_lock<std::mutex> lock(mu);
  cv.wait(lock, [&] { return answers > 0; });
  if (status < 200 || status > 503) std::abort();
  return 0;
}
