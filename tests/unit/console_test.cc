// The console without the network, over a real SQLite store: who may see
// it (the session cookie: valid, expired, forged, made under another admin
// token), the sign-in form, the pages' figures against the admin API, and
// the privacy policy in words.
#include <doctest/doctest.h>

#include <cmath>

#include <nlohmann/json.hpp>

#include "api/admin_api.h"
#include "api/report_rate.h"
#include "api/service_context.h"
#include "console/console.h"
#include "console/console_session.h"
#include "console/privacy_words.h"
#include "store/sqlite_report_store.h"
#include "support/temp_dir.h"

using ldpgraph::HttpRequest;
using ldpgraph::HttpResponse;

namespace {

const char kAdmin[] = "admin-token-for-console-tests";

struct Fixture {
  Fixture() : logger("json", "error") {
    ldpgraph::SqliteStoreOptions o;
    o.path = dir.path() + "/console.db";
    auto s = ldpgraph::OpenSqliteReportStore(o);
    REQUIRE(s.ok());
    store = std::move(*s);
    auto tokens = ldpgraph::TokenAuthority::Create("secret-for-console-tests-0123456789abcdef");
    REQUIRE(tokens.ok());
    ctx = std::make_unique<ldpgraph::ServiceContext>(store.get(), *tokens, kAdmin, ldpgraph::RateLimit{0, 0},
                                                     ldpgraph::RateLimit{0, 0}, &metrics, &logger);
  }
  ~Fixture() { store->Close(); }

  HttpResponse Get(const std::string& target, const std::string& cookie = "", const std::string& bearer = "") {
    HttpRequest r;
    r.method = "GET";
    r.target = target;
    r.cookie = cookie;
    if (!bearer.empty()) r.authorization = "Bearer " + bearer;
    return ldpgraph::HandleConsole(*ctx, r);
  }
  HttpResponse Post(const std::string& target, const std::string& body) {
    HttpRequest r;
    r.method = "POST";
    r.target = target;
    r.body = body;
    return ldpgraph::HandleConsole(*ctx, r);
  }

  ldpgraph::testing::TempDir dir;
  ldpgraph::Metrics metrics;
  ldpgraph::Logger logger;
  std::unique_ptr<ldpgraph::Store> store;
  std::unique_ptr<ldpgraph::ServiceContext> ctx;
};

std::string Header(const HttpResponse& r, const std::string& name) {
  for (const auto& [key, value] : r.headers) {
    if (key == name) return value;
  }
  return "";
}

// "name=value" of a Set-Cookie value.
std::string CookiePair(const std::string& set_cookie) { return set_cookie.substr(0, set_cookie.find(';')); }

}  // namespace

TEST_CASE("ConsoleSession.OnlyAFreshCookieMadeUnderTheAdminTokenOpensTheConsole") {
  const std::int64_t now = 1800000000;
  const std::string cookie = CookiePair(ldpgraph::SessionCookie(kAdmin, now));
  CHECK(ldpgraph::HasValidSession(cookie, kAdmin, now));
  CHECK(ldpgraph::HasValidSession("other=1; " + cookie + "; more=2", kAdmin, now + 3600));
  CHECK_FALSE(ldpgraph::HasValidSession(cookie, kAdmin, now + ldpgraph::kConsoleSessionSeconds));  // expired
  CHECK_FALSE(ldpgraph::HasValidSession(cookie, "another-admin-token", now));  // a new token ends sessions
  std::string forged = cookie;
  forged.back() = forged.back() == '0' ? '1' : '0';
  CHECK_FALSE(ldpgraph::HasValidSession(forged, kAdmin, now));
  // A later expiry with the old MAC, or one beyond a session's length.
  const std::string mac = cookie.substr(cookie.find('.'));
  CHECK_FALSE(ldpgraph::HasValidSession("ldpgraph_console=" + std::to_string(now + 50000) + mac, kAdmin, now));
  for (const char* bad : {"", "ldpgraph_console=", "ldpgraph_console=.abc", "ldpgraph_console=12x.ab",
                          "xldpgraph_console=1.2", "ldpgraph_console=99999999999999999999999.00"}) {
    CHECK_FALSE(ldpgraph::HasValidSession(bad, kAdmin, now));
  }
  const std::string set = ldpgraph::SessionCookie(kAdmin, now);
  for (const char* attribute : {"HttpOnly", "Secure", "SameSite=Strict", "Path=/console"}) {
    CHECK(set.find(attribute) != std::string::npos);
  }
}

TEST_CASE("Console.RefusesEveryPageWithoutTheAdminAndShowsTheAdminApisFigures") {
  Fixture f;
  const std::string graph =
      R"({"graph_id": 5, "num_users": 40, "edges": {"mechanism": "rr-degree", "epsilon": 4.0},
          "features": {"dims": 3, "epsilon": 1.0}, "label": {"classes": 4, "epsilon": 2.0}})";
  HttpRequest create;
  create.method = "POST";
  create.target = "/v1/admin/graphs";
  create.body = graph;
  create.authorization = std::string("Bearer ") + kAdmin;
  // Through the API's own handler, as ldpgraph daemon create-graph would.
  REQUIRE(ldpgraph::HandleAdmin(*f.ctx, create, "/v1/admin/graphs").status == 201);
  CHECK(ldpgraph::IsConsolePath("/console"));
  CHECK(ldpgraph::IsConsolePath("/console/graphs"));
  CHECK_FALSE(ldpgraph::IsConsolePath("/consoles"));
  CHECK_FALSE(ldpgraph::IsConsolePath("/v1/admin/graphs"));

  for (const char* page : {"/console/", "/console/graphs", "/console/graphs/5", "/console/jobs", "/console/models",
                           "/console/models/chart.svg", "/console/nothing"}) {
    CAPTURE(page);
    const HttpResponse refused = f.Get(page);
    CHECK(refused.status == 401);
    CHECK(refused.body.find("Admin token") != std::string::npos);
    CHECK(f.Get(page, "", "wrong-token").status == 401);
    CHECK(f.Get(page, "ldpgraph_console=1.00").status == 401);
  }
  CHECK(f.Get("/console/console.css").status == 200);  // the style sheet shows nothing of the daemon

  // Signing in: a wrong token is refused; the right one gives a session cookie.
  CHECK(f.Post("/console/login", "token=wrong").status == 401);
  CHECK(f.Post("/console/login", "").status == 401);
  const HttpResponse signed_in = f.Post("/console/login", std::string("token=") + kAdmin);
  REQUIRE(signed_in.status == 303);
  CHECK(Header(signed_in, "Location") == "/console/");
  const std::string cookie = CookiePair(Header(signed_in, "Set-Cookie"));
  const HttpResponse overview = f.Get("/console/", cookie);
  CHECK(overview.status == 200);
  CHECK(overview.content_type == "text/html; charset=utf-8");
  CHECK(Header(overview, "Content-Security-Policy").find("default-src 'none'") != std::string::npos);
  CHECK(Header(overview, "Cache-Control") == "no-store");
  CHECK(f.Get("/console/", "", kAdmin).status == 200);  // the bearer header serves tools
  CHECK(overview.body.find("<a href=\"/console/graphs\">1</a> with 40 users and 0 reports") != std::string::npos);
  const HttpResponse graphs = f.Get("/console/graphs", cookie);
  CHECK(graphs.body.find("1 graphs, 40 users, 0 reports stored") != std::string::npos);
  CHECK(graphs.body.find("friend lists, features, labels") != std::string::npos);
  // A page beyond the last (or not a number) shows the nearest one.
  for (const char* query : {"?page=9", "?page=x", "?xpage=2&page=", "?page=99999999999"}) {
    CAPTURE(query);
    const HttpResponse paged = f.Get(std::string("/console/graphs") + query, cookie);
    CHECK(paged.status == 200);
    CHECK(paged.body.find("Graph 5") != std::string::npos);
  }
  const HttpResponse one = f.Get("/console/graphs/5", cookie);
  CHECK(one.status == 200);
  CHECK(one.body.find("rr-degree") != std::string::npos);
  CHECK(one.body.find("0.982") != std::string::npos);  // one friendship at epsilon 4
  CHECK(f.Get("/console/graphs/6", cookie).status == 404);
  CHECK(f.Get("/console/graphs/x", cookie).status == 404);
  // This context has no job runner or model registry: the pages say what they could not read.
  for (const char* page : {"/console/jobs", "/console/models"}) {
    const HttpResponse unread = f.Get(page, cookie);
    CHECK(unread.status == 503);
    CHECK(unread.body.find("could not read this now") != std::string::npos);
  }
  CHECK(f.Get("/console/models/chart.svg", cookie).content_type == "image/svg+xml");
  CHECK(f.Get("/console/nothing", cookie).status == 404);
  CHECK(f.Post("/console/graphs", "").status == 401);  // not signed in: refused before the method

  // Signing out clears the cookie.
  const HttpResponse out = f.Post("/console/logout", "");
  CHECK(out.status == 303);
  CHECK(Header(out, "Set-Cookie").find("Max-Age=0") != std::string::npos);
}

TEST_CASE("PrivacyWords.EachPartWithItsEpsilonAndTheAucItAllows") {
  ldpgraph::GraphConfig c;
  c.graph_id = 1;
  c.num_users = 100;
  c.edges.mechanism = ldpgraph::EdgeMechanism::kRrDegree;
  c.edges.epsilon = 4;
  c.features.enabled = true;
  c.features.params.dims = 3;
  c.features.params.epsilon = 1;
  c.label.enabled = true;
  c.label.classes = 4;
  c.label.epsilon = 2;
  const std::vector<ldpgraph::PrivacyClaim> claims = ldpgraph::PrivacyClaims(c);
  REQUIRE(claims.size() == 5);
  CHECK(claims[0].what == "one friendship");
  CHECK(claims[0].epsilon == 4);
  CHECK(claims[1].per_item);
  CHECK(claims[2].epsilon == 1);  // features
  CHECK(claims[3].epsilon == 2);  // label
  CHECK(claims[3].meaning.find("0.711") != std::string::npos);  // e^2 / (e^2 + 3)
  CHECK(claims[4].what == "her whole report");
  CHECK(claims[4].epsilon == 7);
  const std::string html = ldpgraph::PrivacyInWords(c, {});
  CHECK(html.find("0.982") != std::string::npos);  // MaxAucUnderDp(4): e^4 / (1 + e^4)
  // A user who chose no privacy: nothing protected, said so.
  c.edges.mechanism = ldpgraph::EdgeMechanism::kNone;
  const std::vector<ldpgraph::PrivacyClaim> none = ldpgraph::PrivacyClaims(c);
  CHECK(std::isinf(none.front().epsilon));
  CHECK(std::isinf(none.back().epsilon));
  CHECK(ldpgraph::PrivacyInWords(c, {}).find("no protection") != std::string::npos);
}

TEST_CASE("ReportRate.CountsTheLastSixtyMinutesPerGraph") {
  ldpgraph::ReportRate rate;
  const std::int64_t t = 29000000;  // a minute since the epoch
  for (int i = 0; i < 5; ++i) rate.Count(7, t);
  rate.Count(7, t + 30);
  rate.Count(8, t + 30);
  CHECK(rate.LastHour(7, t + 30) == 6);
  CHECK(rate.LastHour(8, t + 30) == 1);
  CHECK(rate.LastHour(9, t + 30) == 0);
  CHECK(rate.LastHour(7, t + 59) == 6);
  CHECK(rate.LastHour(7, t + 60) == 1);  // the first minute is an hour old
  rate.Count(7, t + 60);                 // and its bucket is taken over, not added to
  CHECK(rate.LastHour(7, t + 60) == 2);
  CHECK(rate.LastHour(7, t + 200) == 0);
}
