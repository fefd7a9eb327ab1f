#include "console/console.h"

#include <algorithm>
#include <cctype>
#include <optional>

#include "api/admin_api.h"
#include "console/console_pages.h"
#include "console/console_session.h"
#include "console/html.h"
#include "net/json_response.h"
#include "net/token_authority.h"
#include "util/unix_clock.h"

namespace ldpgraph {
namespace {

// A form field of an application/x-www-form-urlencoded body, decoded; empty when absent.
std::string FormField(const std::string& body, const std::string& name) {
  std::size_t at = 0;
  while (at <= body.size()) {
    const std::size_t end = std::min(body.find('&', at), body.size());
    const std::string pair = body.substr(at, end - at);
    if (pair.compare(0, name.size() + 1, name + "=") == 0) {
      std::string value;
      for (std::size_t i = name.size() + 1; i < pair.size(); ++i) {
        if (pair[i] == '+') {
          value += ' ';
        } else if (pair[i] == '%' && i + 2 < pair.size() && std::isxdigit(static_cast<unsigned char>(pair[i + 1])) &&
                   std::isxdigit(static_cast<unsigned char>(pair[i + 2]))) {
          value += static_cast<char>(std::stoi(pair.substr(i + 1, 2), nullptr, 16));
          i += 2;
        } else {
          value += pair[i];
        }
      }
      return value;
    }
    at = end + 1;
  }
  return "";
}

// The query parameter page=N (1 when absent or not a number of at most 7 digits).
std::uint64_t PageNumber(const std::string& target) {
  const std::size_t query = target.find('?');
  if (query == std::string::npos) return 1;
  const std::string value = FormField(target.substr(query + 1), "page");
  if (value.empty() || value.size() > 7 ||
      !std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return 1;
  }
  return std::max<std::uint64_t>(1, std::stoull(value));
}

HttpResponse SignInPage(int status, const std::string& notice) {
  std::string body;
  if (!notice.empty()) body += "<p class=\"warning\" role=\"alert\">" + EscapeMarkup(notice) + "</p>\n";
  body +=
      "<form method=\"post\" action=\"/console/login\">\n<p><label for=\"token\">Admin token</label><br>\n"
      "<input id=\"token\" name=\"token\" type=\"password\" autocomplete=\"current-password\" required autofocus "
      "size=\"40\"></p>\n<p><button type=\"submit\">Sign in</button></p>\n</form>\n"
      "<p>The token is in the daemon's <code>admin_token_file</code> (<code>/etc/ldpgraph/admin-token</code> as the "
      "package installs it). Signed in, this browser keeps a session cookie for 12 hours, never the token.</p>\n";
  HttpResponse r = ConsolePage(status, "Sign in", ConsoleSection::kNone, body, false);
  if (status == 401) r.headers.emplace_back("WWW-Authenticate", "Bearer");
  return r;
}

HttpResponse SeeOther(const std::string& location) {
  HttpResponse r;
  r.status = 303;
  r.content_type = "text/plain; charset=utf-8";
  r.body = "see " + location + "\n";
  r.headers.emplace_back("Location", location);
  r.headers.emplace_back("Cache-Control", "no-store");
  return r;
}

bool SignedIn(const ServiceContext& ctx, const HttpRequest& request) {
  return AdminAuthorized(ctx, request) || HasValidSession(request.cookie, ctx.admin_token, UnixSeconds());
}

HttpResponse Login(ServiceContext& ctx, const HttpRequest& request) {
  if (request.method == "GET") return SignInPage(200, "");
  if (request.method != "POST") return MethodNotAllowed(request, "/console/login", "GET, POST");
  const std::string token = FormField(request.body, "token");
  if (token.empty() || !SecretsEqual(token, ctx.admin_token)) {
    ctx.logger->Warning("console_sign_in_refused", {{"client", request.remote_address}});
    return SignInPage(401, "That is not the admin token.");
  }
  HttpResponse r = SeeOther("/console/");
  r.headers.emplace_back("Set-Cookie", SessionCookie(ctx.admin_token, UnixSeconds()));
  return r;
}

}  // namespace

bool IsConsolePath(const std::string& path) { return path == "/console" || path.compare(0, 9, "/console/") == 0; }

HttpResponse HandleConsole(ServiceContext& ctx, const HttpRequest& request) {
  const std::string path = request.target.substr(0, request.target.find('?'));
  if (path == "/console/console.css") {
    return request.method == "GET" ? ConsoleStyleSheet() : MethodNotAllowed(request, path, "GET");
  }
  if (path == "/console/favicon.svg") {
    return request.method == "GET" ? ConsoleIcon() : MethodNotAllowed(request, path, "GET");
  }
  if (path == "/console/login") return Login(ctx, request);
  if (path == "/console/logout") {
    if (request.method != "POST") return MethodNotAllowed(request, path, "POST");
    HttpResponse r = SeeOther("/console/login");
    r.headers.emplace_back("Set-Cookie", ClearedSessionCookie());
    return r;
  }
  if (!SignedIn(ctx, request)) return SignInPage(401, "Sign in to see the console.");
  if (request.method != "GET") return MethodNotAllowed(request, path, "GET");
  if (path == "/console") return SeeOther("/console/");
  if (path == "/console/") return OverviewPage(ctx);
  if (path == "/console/graphs") return GraphsPage(ctx, PageNumber(request.target));
  if (std::optional<std::string> id = PathParameter(path, "/console/graphs/", "")) return GraphPage(ctx, *id);
  if (path == "/console/jobs") return JobsPage(ctx);
  if (path == "/console/models") return ModelsPage(ctx);
  if (path == "/console/models/chart.svg") return ModelsChart(ctx);
  return ConsolePage(404, "Not found", ConsoleSection::kNone,
                     "<p>The console has no page " + EscapeMarkup(path) + ". <a href=\"/console/\">The overview</a>.</p>\n");
}

}  // namespace ldpgraph
