#include "console/html.h"

#include <cmath>
#include <cstdio>

namespace ldpgraph {
namespace {

// No script, nothing from elsewhere: the page may load only this daemon's
// style sheet and images, and post forms only to itself.
constexpr char kSecurityPolicy[] =
    "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; "
    "base-uri 'none'";

// Pages hold what only the admin may see: never cached. The style sheet may be.
void AddSecurityHeaders(HttpResponse* r, bool cacheable) {
  r->headers.emplace_back("Content-Security-Policy", kSecurityPolicy);
  r->headers.emplace_back("X-Content-Type-Options", "nosniff");
  r->headers.emplace_back("Referrer-Policy", "no-referrer");
  r->headers.emplace_back("Cache-Control", cacheable ? "max-age=3600" : "no-store");
}

std::string NavLink(const char* href, const char* label, bool current) {
  return std::string("<li><a href=\"") + href + "\"" + (current ? " aria-current=\"page\"" : "") + ">" + label +
         "</a></li>";
}

}  // namespace

std::string Grouped(std::uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string Fixed3(double x) {
  if (!(x >= 0) || !std::isfinite(x)) return "-";
  char text[32];
  std::snprintf(text, sizeof(text), "%.3f", x);
  return text;
}

HttpResponse ConsolePage(int status, const std::string& title, ConsoleSection section, const std::string& body,
                         bool signed_in, int refresh_seconds) {
  std::string html =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  if (refresh_seconds > 0) html += "<meta http-equiv=\"refresh\" content=\"" + std::to_string(refresh_seconds) + "\">\n";
  html += "<title>" + EscapeMarkup(title) + " - ldpgraphd</title>\n<link rel=\"stylesheet\" href=\"/console/console.css\">\n"
          "<link rel=\"icon\" href=\"/console/favicon.svg\" type=\"image/svg+xml\">\n"
          "</head>\n<body>\n<a class=\"skip\" href=\"#main\">Skip to the content</a>\n<header>\n"
          "<p class=\"brand\">ldpgraphd console</p>\n";
  if (signed_in) {
    html += "<nav aria-label=\"Console\"><ul>" + NavLink("/console/", "Overview", section == ConsoleSection::kOverview) +
            NavLink("/console/graphs", "Graphs", section == ConsoleSection::kGraphs) +
            NavLink("/console/jobs", "Jobs", section == ConsoleSection::kJobs) +
            NavLink("/console/models", "Models", section == ConsoleSection::kModels) + "</ul></nav>\n" +
            "<form method=\"post\" action=\"/console/logout\"><button type=\"submit\">Sign out</button></form>\n";
  }
  html += "</header>\n<main id=\"main\">\n<h1>" + EscapeMarkup(title) + "</h1>\n" + body + "</main>\n</body>\n</html>\n";
  HttpResponse r;
  r.status = status;
  r.content_type = "text/html; charset=utf-8";
  r.body = std::move(html);
  AddSecurityHeaders(&r, false);
  return r;
}

HttpResponse ConsoleIcon() {
  // Two linked dots: a graph.
  HttpResponse r;
  r.content_type = "image/svg+xml";
  r.body =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 16 16\"><line x1=\"4\" y1=\"12\" x2=\"12\" "
      "y2=\"4\" stroke=\"#111\" stroke-width=\"2\"/><circle cx=\"4\" cy=\"12\" r=\"3\" fill=\"#0a3d91\"/>"
      "<circle cx=\"12\" cy=\"4\" r=\"3\" fill=\"#0a3d91\"/></svg>\n";
  AddSecurityHeaders(&r, true);
  return r;
}

HttpResponse ConsoleStyleSheet() {
  // Black on white, links underlined, focus drawn thick: nothing depends
  // on colour, and every control shows where the keyboard is.
  HttpResponse r;
  r.content_type = "text/css; charset=utf-8";
  r.body = R"css(
body { font: 16px/1.5 system-ui, sans-serif; margin: 0; color: #111; background: #fff; }
header { display: flex; flex-wrap: wrap; align-items: center; gap: 1em; padding: 0.5em 1em; border-bottom: 2px solid #111; }
.brand { font-weight: bold; margin: 0; }
nav ul { list-style: none; display: flex; gap: 1em; margin: 0; padding: 0; }
nav a[aria-current="page"] { font-weight: bold; text-decoration: underline double; }
main { padding: 1em; max-width: 80em; }
a { color: #0a3d91; text-decoration: underline; }
a:focus, button:focus, input:focus { outline: 3px solid #111; outline-offset: 2px; }
.skip { position: absolute; left: -10em; }
.skip:focus { left: 1em; top: 0.5em; background: #fff; }
table { border-collapse: collapse; margin: 1em 0; }
caption { text-align: left; font-weight: bold; padding: 0.25em 0; }
th, td { border: 1px solid #555; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
dl.facts { display: grid; grid-template-columns: max-content auto; gap: 0.25em 1em; }
dl.facts dt { font-weight: bold; }
.state { font-weight: bold; }
.state-failed::before { content: "\2716  "; }
.state-succeeded::before { content: "\2714  "; }
.warning { border: 2px solid #111; padding: 0.5em; }
progress { width: 10em; }
)css";
  AddSecurityHeaders(&r, true);
  return r;
}

}  // namespace ldpgraph
