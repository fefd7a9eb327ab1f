// ldpgraphd as a real process on loopback TLS: every bad input of the ingest
// API gets its own status and leaves the store unchanged; retries are
// idempotent; plain HTTP and a server of the wrong CA are refused; slow
// clients are cut off; SIGTERM drains and exits 0.
#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include <nlohmann/json.hpp>

#include "requests/graph_config_json.h"
#include "ldpgraph/report_builder.h"
#include "ldpgraph/transport/uploader.h"
#include "ldpgraph/wire_format.h"
#include "net/token_authority.h"
#include "support/daemon_process.h"
#include "support/raw_tls.h"
#include "support/temp_dir.h"

using ldpgraph::testing::DaemonProcess;
using ldpgraph::testing::DaemonSettings;
using ldpgraph::testing::TempDir;
using nlohmann::json;
namespace lt = ldpgraph::transport;

namespace {

constexpr std::uint64_t kGraph = 7;
constexpr std::uint32_t kUsers = 100;

const char kGraphJson[] =
    R"({"graph_id": 7, "num_users": 100, "edges": {"mechanism": "dprr", "epsilon": 1.0},
        "label": {"classes": 2, "epsilon": 1.0}})";

ldpgraph::GraphConfig Config(double epsilon = 1.0) {
  ldpgraph::GraphConfig c;
  c.graph_id = kGraph;
  c.num_users = kUsers;
  c.edges.epsilon = epsilon;
  c.label.enabled = true;
  c.label.classes = 2;
  c.label.epsilon = 1.0;
  return c;
}

ldpgraph::Report Build(std::uint32_t user, std::uint64_t seed, const ldpgraph::GraphConfig& config = Config()) {
  auto builder = ldpgraph::ReportBuilder::Create(config);
  REQUIRE(builder.ok());
  ldpgraph::SeededRandomSource rng(seed);
  std::vector<std::uint32_t> neighbours = {(user + 1) % kUsers, (user + 2) % kUsers};
  ldpgraph::UserData data;
  data.user_id = user;
  data.neighbours = ldpgraph::Span<const std::uint32_t>(neighbours.data(), neighbours.size());
  data.has_label = true;
  data.label = user % 2;
  auto report = (*builder)->Build(data, rng);
  REQUIRE(report.ok());
  return *report;
}

std::string Bytes(const ldpgraph::Report& r) {
  std::vector<std::uint8_t> out;
  REQUIRE(ldpgraph::EncodeReport(r, &out).ok());
  return std::string(out.begin(), out.end());
}

std::string Token(std::uint64_t graph, std::uint32_t user) {
  auto authority = ldpgraph::TokenAuthority::Create(DaemonProcess::kSecret);
  REQUIRE(authority.ok());
  return authority->Issue(graph, user);
}

struct Daemon {
  explicit Daemon(DaemonSettings settings = {})
      : process(LDPGRAPHD, dir.path(), std::move(settings)) {
    REQUIRE_MESSAGE(process.Start(), process.log());
    auto c = lt::HttpsClient::Create(process.endpoint());
    REQUIRE(c.ok());
    client = std::move(*c);
  }

  lt::HttpAnswer Call(const std::string& method, const std::string& path, const std::string& body = "",
                      const std::string& bearer = "") {
    auto answer = client->Request(method, path, body.empty() ? "" : "application/octet-stream", body, bearer);
    REQUIRE_MESSAGE(answer.ok(), answer.status().message());
    return *answer;
  }
  lt::HttpAnswer Admin(const std::string& method, const std::string& path, const std::string& body = "") {
    return Call(method, path, body, DaemonProcess::kAdminToken);
  }
  lt::HttpAnswer Post(const std::string& body, const std::string& token) {
    return Call("POST", "/v1/reports", body, token);
  }
  std::uint64_t StoredReports() {
    const json list = json::parse(Admin("GET", "/v1/admin/graphs").body);
    for (const json& g : list["graphs"]) {
      if (g["graph_id"] == kGraph) return g["reports"].get<std::uint64_t>();
    }
    return 0;
  }

  TempDir dir;
  DaemonProcess process;
  std::unique_ptr<lt::HttpsClient> client;
};

// An uploader whose own backoff is tiny (10-20 ms): any long wait is the daemon's doing.
std::unique_ptr<lt::Uploader> QuickRetryUploader(const Daemon& d) {
  lt::UploaderOptions o;
  o.server = d.process.endpoint();
  o.retry = {10, 20, 10000};
  auto uploader = lt::Uploader::Create(o);
  REQUIRE(uploader.ok());
  return std::move(*uploader);
}

std::string ErrorOf(const lt::HttpAnswer& a) {
  const json j = json::parse(a.body, nullptr, false);
  return j.is_object() && j.contains("error") ? j["error"].get<std::string>() : std::string();
}

}  // namespace

TEST_CASE("Daemon.AdminCreatesGraphsAndIssuesTokens") {
  Daemon d;
  CHECK(d.Call("GET", "/healthz").status == 200);
  CHECK(d.Call("POST", "/v1/admin/graphs", kGraphJson).status == 401);  // no admin token
  CHECK(d.Call("POST", "/v1/admin/graphs", kGraphJson, "wrong-admin-token-xxxxxxxx").status == 401);
  auto created = d.Admin("POST", "/v1/admin/graphs", kGraphJson);
  CHECK(created.status == 201);
  CHECK(d.Admin("POST", "/v1/admin/graphs", kGraphJson).status == 409);
  auto bad = d.Admin("POST", "/v1/admin/graphs", R"({"graph_id": 8, "num_users": 1, "edges": {"mechanism": "dprr", "epsilon": 1}})");
  CHECK(bad.status == 400);
  CHECK(bad.body.find("n") != std::string::npos);
  CHECK(d.Admin("POST", "/v1/admin/graphs", R"({"graph_id": 9, "num_users": 10, "edges": {"mechanism": "dprr"}})").status == 400);
  CHECK(d.Admin("POST", "/v1/admin/graphs", "not json").status == 400);

  auto config = d.Call("GET", "/v1/graphs/7");
  CHECK(config.status == 200);
  CHECK(json::parse(config.body)["num_users"] == kUsers);
  CHECK(d.Call("GET", "/v1/graphs/8").status == 404);
  CHECK(d.Call("GET", "/v1/graphs/abc").status == 400);
  CHECK(d.Call("POST", "/v1/graphs/7", "x").status == 405);
  CHECK(d.Call("GET", "/nowhere").status == 404);

  auto tokens = d.Admin("POST", "/v1/admin/graphs/7/tokens", R"({"first": 10, "count": 3})");
  REQUIRE(tokens.status == 200);
  const json t = json::parse(tokens.body);
  REQUIRE(t["tokens"].size() == 3);
  CHECK(t["tokens"][0]["user_id"] == 10);
  CHECK(t["tokens"][0]["token"] == Token(kGraph, 10));
  CHECK(d.Admin("POST", "/v1/admin/graphs/7/tokens", R"({"users": [100]})").status == 400);
  // first + count past 2^64 - 1 (issue 28: it used to wrap and answer 200 with no token).
  auto wrapped = d.Admin("POST", "/v1/admin/graphs/7/tokens", R"({"first": 18446744073709551615, "count": 2})");
  CHECK(wrapped.status == 400);
  CHECK(ErrorOf(wrapped) == "out_of_range");
  CHECK(d.Admin("POST", "/v1/admin/graphs/7/tokens", R"({"first": 1000, "count": 1})").status == 400);
  // Raw bytes that are not UTF-8 in the path come back as valid JSON (issue 28: they were copied in).
  auto raw = d.Call("GET", "/\xff\xfe");
  CHECK(raw.status == 404);
  const json parsed = json::parse(raw.body, nullptr, false);  // nlohmann refuses invalid UTF-8
  CHECK_FALSE(parsed.is_discarded());
  CHECK(raw.body.find("\\ufffd") != std::string::npos);
  CHECK(d.Admin("POST", "/v1/admin/graphs/8/tokens", R"({"users": [1]})").status == 404);

  // A restart serves the graphs it stored.
  CHECK(d.process.Stop() == 0);
  REQUIRE(d.process.Start());
  d.client->Disconnect();
  CHECK(d.Call("GET", "/v1/graphs/7").status == 200);
}

TEST_CASE("Daemon.EveryBadReportGetsItsStatusAndChangesNothing") {
  DaemonSettings settings;
  settings.extra_server = "max_body_bytes = 65536\n";
  settings.limits = "per_token_rate = 1\nper_token_burst = 1000\nper_address_rate = 0\n";
  Daemon d(settings);
  REQUIRE(d.Admin("POST", "/v1/admin/graphs", kGraphJson).status == 201);
  const ldpgraph::Report good = Build(3, 1);
  const std::string good_bytes = Bytes(good);
  const std::string token = Token(kGraph, 3);

  struct Case {
    const char* name;
    std::string body;
    std::string token;
    int status;
    const char* error;
  };
  std::string wrong_version = good_bytes;
  wrong_version[2] = 9;
  ldpgraph::Report unknown_graph = good;
  unknown_graph.graph_id = 99;
  ldpgraph::Report big_n = Build(150, 2, [] {
    auto c = Config();
    c.num_users = 200;
    return c;
  }());
  ldpgraph::Report far_neighbour = good;
  far_neighbour.num_users = 200;
  far_neighbour.edges.neighbours = {4, 150};
  ldpgraph::Report other_epsilon = Build(3, 3, Config(2.0));
  ldpgraph::Report no_label = good;
  no_label.has_label = false;
  std::vector<Case> cases = {
      {"no token", good_bytes, "", 401, "unauthenticated"},
      {"forged token", good_bytes, token.substr(0, token.size() - 2) + "AA", 401, "unauthenticated"},
      {"not a token", good_bytes, "hello", 401, "unauthenticated"},
      {"token of another user", good_bytes, Token(kGraph, 4), 403, "forbidden"},
      {"token of another graph", good_bytes, Token(8, 3), 403, "forbidden"},
      {"too large", std::string(100000, 'x'), token, 413, "too_large"},
      {"garbage", "hello world", token, 400, "malformed"},
      {"empty", "", token, 400, "malformed"},
      {"truncated", good_bytes.substr(0, good_bytes.size() - 3), token, 400, "malformed"},
      {"trailing byte", good_bytes + "x", token, 400, "malformed"},
      {"wrong version", wrong_version, token, 400, "malformed"},
      {"unknown graph", Bytes(unknown_graph), Token(99, 3), 404, "unknown_graph"},
      {"user out of range", Bytes(big_n), Token(kGraph, 150), 400, "out_of_range"},
      {"neighbour out of range", Bytes(far_neighbour), token, 400, "out_of_range"},
      {"other epsilon", Bytes(other_epsilon), token, 422, "policy_mismatch"},
      {"missing label", Bytes(no_label), token, 422, "policy_mismatch"},
      {"batch with a bad count", std::string("LB\x01\x00", 4), token, 400, "malformed"},
  };
  for (const Case& c : cases) {
    INFO(std::string(c.name));
    auto answer = d.Post(c.body, c.token);
    INFO(answer.body);
    CHECK(answer.status == c.status);
    CHECK(ErrorOf(answer) == c.error);
    if (c.status == 401) CHECK(answer.body.find("message") != std::string::npos);
    if (c.status == 413) d.client->Disconnect();  // the daemon closes after a 413
  }
  CHECK(d.StoredReports() == 0);

  // Accepted once; the same bytes again are a duplicate; other bytes a conflict.
  auto first = d.Post(good_bytes, token);
  CHECK(first.status == 200);
  CHECK(json::parse(first.body)["outcome"] == "stored");
  auto again = d.Post(good_bytes, token);
  CHECK(again.status == 200);
  CHECK(json::parse(again.body)["outcome"] == "duplicate");
  auto second = d.Post(Bytes(Build(3, 77)), token);
  CHECK(second.status == 409);
  CHECK(ErrorOf(second) == "conflict");
  CHECK(d.StoredReports() == 1);

  // A batch: one result per report, 207 when they differ.
  std::vector<std::vector<std::uint8_t>> items = {{good_bytes.begin(), good_bytes.end()},
                                                  {wrong_version.begin(), wrong_version.end()}};
  std::vector<std::uint8_t> batch;
  REQUIRE(ldpgraph::EncodeBatch(items, &batch).ok());
  auto mixed = d.Post(std::string(batch.begin(), batch.end()), token);
  CHECK(mixed.status == 207);
  const json results = json::parse(mixed.body)["results"];
  REQUIRE(results.size() == 2);
  CHECK(results[0]["status"] == 200);
  CHECK(results[1]["status"] == 400);
  CHECK(d.StoredReports() == 1);

  const std::string metrics = d.Call("GET", "/metrics").body;
  CHECK(metrics.find("ldpgraph_reports_accepted_total{outcome=\"stored\"} 1") != std::string::npos);
  CHECK(metrics.find("ldpgraph_reports_rejected_total{reason=\"conflict\"} 1") != std::string::npos);
  CHECK(metrics.find("ldpgraph_request_seconds_bucket") != std::string::npos);
  CHECK(metrics.find("ldpgraph_store_commit_seconds_count") != std::string::npos);
}

TEST_CASE("Daemon.RateLimitAnswers429WithRetryAfter") {
  DaemonSettings settings;
  settings.limits = "per_token_rate = 0.5\nper_token_burst = 2\nper_address_rate = 0\n";
  Daemon d(settings);
  REQUIRE(d.Admin("POST", "/v1/admin/graphs", kGraphJson).status == 201);
  const std::string bytes = Bytes(Build(5, 1));
  const std::string token = Token(kGraph, 5);
  CHECK(d.Post(bytes, token).status == 200);
  CHECK(d.Post(bytes, token).status == 200);
  auto limited = d.Post(bytes, token);
  CHECK(limited.status == 429);
  CHECK(limited.retry_after_seconds >= 1);
  // Another user is not limited by this one.
  CHECK(d.Post(Bytes(Build(6, 1)), Token(kGraph, 6)).status == 200);
  CHECK(d.StoredReports() == 2);
}

TEST_CASE("Daemon.RefusesPlainHttpAndSlowClients") {
  DaemonSettings settings;
  settings.extra_server = "request_timeout_ms = 300\nidle_timeout_ms = 300\n";
  Daemon d(settings);
  auto connect = [&] {
    const int fd = ldpgraph::testing::ConnectLoopback(d.process.port());
    REQUIRE(fd >= 0);
    return fd;
  };
  {
    const int fd = connect();
    const std::string plain = "GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n";
    REQUIRE(::send(fd, plain.data(), plain.size(), 0) == static_cast<ssize_t>(plain.size()));
    char buf[512];
    std::string got;
    ssize_t n;
    while ((n = ::recv(fd, buf, sizeof(buf), 0)) > 0) got.append(buf, static_cast<std::size_t>(n));
    CHECK(got.find("HTTP/1.1") == std::string::npos);  // no HTTP answer, only a TLS alert at most
    ::close(fd);
  }
  {
    // Silent client: cut off after the handshake deadline, well before our 5 s receive timeout.
    const int fd = connect();
    const auto start = std::chrono::steady_clock::now();
    char buf[16];
    const ssize_t n = ::recv(fd, buf, sizeof(buf), 0);
    const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    CHECK(n <= 0);
    CHECK(waited < 3.0);
    ::close(fd);
  }
  CHECK(d.Call("GET", "/healthz").status == 200);  // the daemon is unharmed
}

TEST_CASE("Daemon.UploaderRefusesAServerOfAnotherCa") {
  DaemonSettings settings;
  settings.listen_address = "0.0.0.0";  // reachable as 127.0.0.2 too, a name its certificate lacks
  Daemon d(settings);
  TempDir other;
  auto foreign = ldpgraph::WriteTestPki(other.path(), "some other CA");
  REQUIRE(foreign.ok());
  lt::UploaderOptions o;
  o.server = d.process.endpoint();
  o.server.ca_file = foreign->ca_certificate;
  o.retry = {10, 50, 2000};
  auto uploader = lt::Uploader::Create(o);
  REQUIRE(uploader.ok());
  auto sent = (*uploader)->Send(Token(kGraph, 1), std::vector<std::uint8_t>{1, 2, 3});
  REQUIRE_FALSE(sent.ok());
  CHECK(sent.status().code() == ldpgraph::StatusCode::kFailedPrecondition);  // no retries
  CHECK(sent.status().message().find("does not verify") != std::string::npos);
  // The right CA but the wrong host name is refused too.
  lt::UploaderOptions wrong_name = o;
  wrong_name.server.ca_file = d.process.pki().ca_certificate;
  wrong_name.server.host = "127.0.0.2";
  auto misnamed = lt::Uploader::Create(wrong_name);
  REQUIRE(misnamed.ok());
  auto refused = (*misnamed)->Send(Token(kGraph, 1), std::vector<std::uint8_t>{1, 2, 3});
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().code() == ldpgraph::StatusCode::kFailedPrecondition);
  CHECK(refused.status().message().find("does not verify") != std::string::npos);
}

TEST_CASE("Daemon.RequiresClientCertificatesWhenConfigured") {
  TempDir ca_dir;
  auto client_pki = ldpgraph::WriteTestPki(ca_dir.path(), "client CA");
  REQUIRE(client_pki.ok());
  DaemonSettings settings;
  settings.client_ca = client_pki->ca_certificate;
  TempDir dir;
  DaemonProcess process(LDPGRAPHD, dir.path(), settings);
  REQUIRE_MESSAGE(process.Start(), process.log());
  lt::ServerEndpoint e = process.endpoint();
  auto anonymous = lt::HttpsClient::Create(e);
  REQUIRE(anonymous.ok());
  CHECK_FALSE((*anonymous)->Request("GET", "/healthz", "", "", "").ok());
  e.client_certificate_file = client_pki->client_certificate;
  e.client_key_file = client_pki->client_key;
  auto known = lt::HttpsClient::Create(e);
  REQUIRE(known.ok());
  auto answer = (*known)->Request("GET", "/healthz", "", "", "");
  REQUIRE(answer.ok());
  CHECK(answer->status == 200);
}

TEST_CASE("Daemon.SigtermDrainsAndExitsZero") {
  Daemon d;
  REQUIRE(d.Admin("POST", "/v1/admin/graphs", kGraphJson).status == 201);
  CHECK(d.Post(Bytes(Build(1, 1)), Token(kGraph, 1)).status == 200);
  CHECK(d.process.Stop() == 0);
  const std::string log = d.process.log();
  CHECK(log.find("\"event\":\"stopping\"") != std::string::npos);
  CHECK(log.find("\"event\":\"stopped\"") != std::string::npos);
  REQUIRE(d.process.Start());
  d.client->Disconnect();
  CHECK(d.StoredReports() == 1);
}

TEST_CASE("Daemon.SighupReloadsTheCertificate") {
  Daemon d;
  // A new PKI replaces the files the config names; old connections keep theirs.
  TempDir fresh;
  auto next = ldpgraph::WriteTestPki(fresh.path(), "rotated CA");
  REQUIRE(next.ok());
  REQUIRE(std::system(("cp '" + next->server_certificate + "' '" + d.process.pki().server_certificate + "' && cp '" +
                       next->server_key + "' '" + d.process.pki().server_key + "'")
                          .c_str()) == 0);
  auto connect = [&](const std::string& ca) {
    lt::ServerEndpoint e = d.process.endpoint();
    e.ca_file = ca;
    auto c = lt::HttpsClient::Create(e);
    REQUIRE(c.ok());
    return (*c)->Request("GET", "/healthz", "", "", "");
  };
  CHECK(connect(d.process.pki().ca_certificate).ok());  // not reloaded yet
  d.process.Signal(SIGHUP);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (d.process.log().find("certificates_reloaded") == std::string::npos &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  CHECK(connect(next->ca_certificate).ok());
  auto old = connect(d.process.pki().ca_certificate);
  CHECK_FALSE(old.ok());
  // A broken file is refused and the current certificate stays.
  std::ofstream(d.process.pki().server_key) << "not a key";
  d.process.Signal(SIGHUP);
  while (d.process.log().find("certificate_reload_failed") == std::string::npos &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  CHECK(d.process.log().find("certificate_reload_failed") != std::string::npos);
  CHECK(connect(next->ca_certificate).ok());
}

TEST_CASE("Daemon.UploaderWaitsWhatRetryAfterAsks") {
  DaemonSettings settings;
  settings.limits = "per_token_rate = 0.5\nper_token_burst = 1\nper_address_rate = 0\n";
  Daemon d(settings);
  REQUIRE(d.Admin("POST", "/v1/admin/graphs", kGraphJson).status == 201);
  auto uploader = QuickRetryUploader(d);  // any long wait is Retry-After's
  const std::string bytes = Bytes(Build(2, 1));
  const std::vector<std::uint8_t> report(bytes.begin(), bytes.end());
  auto first = uploader->Send(Token(kGraph, 2), report);
  REQUIRE(first.ok());
  CHECK(first->attempts == 1);
  const auto start = std::chrono::steady_clock::now();
  auto second = uploader->Send(Token(kGraph, 2), report);  // 429, Retry-After: 2, then a duplicate
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  REQUIRE(second.ok());
  CHECK(second->delivered);
  CHECK(second->attempts == 2);
  CHECK(second->body.find("duplicate") != std::string::npos);
  CHECK(waited >= 1.9);
  CHECK(d.StoredReports() == 1);
}

// HTTP/1.1 pipelining: requests sent back to back in one write are answered
// in order, each as it would be alone, whatever order the answers are ready in
// (a report waits for its commit; a refusal or /healthz does not).
TEST_CASE("Daemon.AnswersPipelinedRequestsInOrder") {
  Daemon d;
  REQUIRE(d.Admin("POST", "/v1/admin/graphs", kGraphJson).status == 201);
  const ldpgraph::Report first = Build(1, 1), second = Build(2, 1);
  auto report = [](const std::string& body, const std::string& token) {
    return lt::HttpRequestSpec{"POST", "/v1/reports", "application/octet-stream", body, token, ""};
  };
  std::vector<lt::HttpRequestSpec> requests = {
      report(Bytes(first), Token(kGraph, 1)),
      report("not a report", Token(kGraph, 3)),
      {"GET", "/healthz", "", "", "", ""},
      report(Bytes(first), Token(kGraph, 1)),  // the same again: a duplicate
      report(Bytes(second), Token(kGraph, 2)),
      report(Bytes(Build(4, 1)), Token(kGraph, 5)),  // another user's token
  };
  const std::uint64_t handshakes = d.client->handshakes();
  std::vector<ldpgraph::Result<lt::HttpAnswer>> answers = d.client->Pipeline(requests);
  REQUIRE(answers.size() == requests.size());
  for (const auto& a : answers) REQUIRE_MESSAGE(a.ok(), a.status().message());
  CHECK(answers[0]->status == 200);
  CHECK(json::parse(answers[0]->body)["report_id"] == ldpgraph::ReportIdToHex(first.report_id));
  CHECK(answers[1]->status == 400);
  CHECK(ErrorOf(*answers[1]) == "malformed");
  CHECK(answers[2]->status == 200);
  CHECK(answers[2]->body.find("report_id") == std::string::npos);
  CHECK(answers[3]->status == 200);
  CHECK(json::parse(answers[3]->body)["outcome"] == "duplicate");
  CHECK(answers[4]->status == 200);
  CHECK(json::parse(answers[4]->body)["report_id"] == ldpgraph::ReportIdToHex(second.report_id));
  CHECK(answers[5]->status == 403);
  CHECK(d.client->handshakes() == handshakes);  // one connection throughout
  CHECK(d.StoredReports() == 2);
}

// More requests than the daemon reads ahead (max_pipelined_requests = 2 here)
// wait in the socket, and are all answered.
TEST_CASE("Daemon.UploaderSendsManyReportsPipelined") {
  DaemonSettings settings;
  settings.extra_server = "max_pipelined_requests = 2\n";
  Daemon d(settings);
  REQUIRE(d.Admin("POST", "/v1/admin/graphs", kGraphJson).status == 201);
  auto uploader = QuickRetryUploader(d);
  std::vector<lt::OutgoingReport> reports;
  for (std::uint32_t u = 0; u < 40; ++u) {
    const std::string bytes = Bytes(Build(u, 3));
    reports.push_back({Token(kGraph, u), std::vector<std::uint8_t>(bytes.begin(), bytes.end())});
  }
  reports[7].token = Token(kGraph, 8);  // refused for good (403), the others unaffected
  const auto before = std::chrono::steady_clock::now();
  auto sent = uploader->SendMany(reports, 16);
  const auto after = std::chrono::steady_clock::now();
  REQUIRE(sent.size() == reports.size());
  for (std::size_t i = 0; i < sent.size(); ++i) {
    REQUIRE_MESSAGE(sent[i].ok(), sent[i].status().message());
    CHECK(sent[i]->delivered == (i != 7));
    CHECK(sent[i]->attempts == 1);
    // One connection answers in request order: each answer's own arrival.
    CHECK(sent[i]->answered >= before);
    CHECK(sent[i]->answered <= after);
    if (i > 0) CHECK(sent[i]->answered >= sent[i - 1]->answered);
  }
  CHECK(sent.back()->answered > sent.front()->answered);  // 40 answers over several windows
  CHECK(sent[7]->http_status == 403);
  CHECK(uploader->handshakes() == 1);
  CHECK(d.StoredReports() == 39);
  // Sent again: every one a duplicate, nothing stored twice.
  reports.erase(reports.begin() + 7);
  auto again = uploader->SendMany(reports, 16);
  for (const auto& r : again) {
    REQUIRE(r.ok());
    CHECK(r->body.find("duplicate") != std::string::npos);
  }
  CHECK(d.StoredReports() == 39);
}

TEST_CASE("Daemon.TellsSystemdReadyWatchdogAndStopping") {
  TempDir sock_dir;
  const std::string path = sock_dir.path() + "/notify";
  const int fd = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  REQUIRE(fd >= 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", path.c_str());
  REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0);
  timeval tv{5, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  DaemonSettings settings;
  settings.env = {{"NOTIFY_SOCKET", path}, {"WATCHDOG_USEC", "200000"}};
  TempDir dir;
  DaemonProcess process(LDPGRAPHD, dir.path(), settings);
  REQUIRE_MESSAGE(process.Start(), process.log());
  auto receive = [&] {
    char buf[256];
    const ssize_t n = ::recv(fd, buf, sizeof(buf), 0);
    return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string();
  };
  CHECK(receive().find("READY=1") != std::string::npos);
  CHECK(receive().find("WATCHDOG=1") != std::string::npos);  // every 100 ms: half the interval
  process.Signal(SIGHUP);
  // Watchdog pings interleave: collect what arrives until each expected message was seen.
  auto expect = [&](const char* message) {
    for (int i = 0; i < 50; ++i) {
      const std::string got = receive();
      if (got.empty()) break;
      if (got.find(message) != std::string::npos) return true;
    }
    return false;
  };
  CHECK(expect("RELOADING=1"));
  CHECK(expect("READY=1"));
  CHECK(process.Stop() == 0);
  CHECK(expect("STOPPING=1"));
  ::close(fd);
}

TEST_CASE("Daemon.UploaderFetchesTheGraphConfigInBinary") {
  Daemon d;
  REQUIRE(d.Admin("POST", "/v1/admin/graphs", kGraphJson).status == 201);
  lt::UploaderOptions o;
  o.server = d.process.endpoint();
  auto uploader = lt::Uploader::Create(o);
  REQUIRE(uploader.ok());
  auto config = (*uploader)->FetchGraphConfig(kGraph);
  REQUIRE_MESSAGE(config.ok(), config.status().message());
  CHECK(ldpgraph::GraphConfigToJson(*config) == ldpgraph::GraphConfigToJson(*ldpgraph::GraphConfigFromJson(kGraphJson)));
  // What the device fetched is what it builds reports with: they pass the daemon's checks.
  auto builder = ldpgraph::ReportBuilder::Create(*config);
  REQUIRE(builder.ok());
  auto missing = (*uploader)->FetchGraphConfig(99);
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.status().code() == ldpgraph::StatusCode::kFailedPrecondition);
  CHECK(d.Call("GET", "/v1/graphs/7").body.front() == '{');  // JSON unless asked otherwise
}
