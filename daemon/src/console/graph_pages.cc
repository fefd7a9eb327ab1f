// The graph list and one graph's page.
#include <algorithm>
#include <optional>

#include "api/report_rate.h"
#include "console/admin_json.h"
#include "console/console_pages.h"
#include "console/html.h"
#include "console/privacy_words.h"
#include "net/json_response.h"

namespace ldpgraph {
namespace {

using nlohmann::json;

std::string Kind(const json& g) {
  const json& config = g["config"];
  if (config.contains("embedding")) return "embedding (GW-LDP)";
  std::string parts = "friend lists";
  if (config.contains("features")) parts += ", features";
  if (config.contains("label")) parts += ", labels";
  return parts;
}

std::string RoundsCell(const json& g) {
  if (!g.contains("rounds")) return "collected once";
  const json& r = g["rounds"];
  return r.contains("open") ? "round " + std::to_string(r["open"].get<std::uint64_t>()) + " open" : "in rounds";
}

std::string Pager(std::uint64_t page, std::uint64_t pages) {
  if (pages <= 1) return "";
  std::string html = "<nav aria-label=\"Pages of graphs\"><p>Page " + std::to_string(page) + " of " +
                     std::to_string(pages) + ". ";
  if (page > 1) html += "<a href=\"/console/graphs?page=" + std::to_string(page - 1) + "\">Previous page</a> ";
  if (page < pages) html += "<a href=\"/console/graphs?page=" + std::to_string(page + 1) + "\">Next page</a>";
  return html + "</p></nav>\n";
}

}  // namespace

HttpResponse GraphsPage(ServiceContext& ctx, std::uint64_t page) {
  Result<json> list = AdminJson(ctx, "/v1/admin/graphs");
  if (!list.ok()) return UnavailablePage("Graphs", list.status().message());
  const json& graphs = (*list)["graphs"];
  const std::uint64_t count = graphs.size();
  const std::uint64_t pages = std::max<std::uint64_t>(1, (count + kGraphsPerPage - 1) / kGraphsPerPage);
  page = std::min(std::max<std::uint64_t>(page, 1), pages);
  std::uint64_t users = 0, reports = 0;
  for (const json& g : graphs) {
    users += g["num_users"].get<std::uint64_t>();
    reports += g["reports"].get<std::uint64_t>();
  }
  std::string body = "<p>" + Grouped(count) + " graphs, " + Grouped(users) + " users, " + Grouped(reports) +
                     " reports stored.</p>\n" + Pager(page, pages);
  body += "<table>\n<caption>Graphs " + Grouped(std::min(count, (page - 1) * kGraphsPerPage + 1)) + " to " +
          Grouped(std::min(count, page * kGraphsPerPage)) +
          "</caption>\n<thead><tr><th scope=\"col\">graph</th><th scope=\"col\">collects</th>"
          "<th scope=\"col\" class=\"n\">users</th><th scope=\"col\" class=\"n\">reports</th>"
          "<th scope=\"col\" class=\"n\">reported</th><th scope=\"col\" class=\"n\">reports in the last hour</th>"
          "<th scope=\"col\">rounds</th><th scope=\"col\">label</th></tr></thead>\n<tbody>\n";
  const std::int64_t minute = ReportRate::Now();
  for (std::uint64_t i = (page - 1) * kGraphsPerPage; i < std::min(count, page * kGraphsPerPage); ++i) {
    const json& g = graphs[i];
    const std::uint64_t id = g["graph_id"].get<std::uint64_t>();
    const std::uint64_t n = g["num_users"].get<std::uint64_t>(), r = g["reports"].get<std::uint64_t>();
    const std::string share = n > 0 ? Fixed3(static_cast<double>(std::min(r, n)) / static_cast<double>(n)) : "-";
    body += "<tr><th scope=\"row\"><a href=\"/console/graphs/" + std::to_string(id) + "\">Graph " +
            std::to_string(id) + "</a></th><td>" + EscapeMarkup(Kind(g)) + "</td><td class=\"n\">" + Grouped(n) +
            "</td><td class=\"n\">" + Grouped(r) + "</td><td class=\"n\">" + share + "</td><td class=\"n\">" +
            Grouped(ctx.report_rate.LastHour(id, minute)) + "</td><td>" + EscapeMarkup(RoundsCell(g)) + "</td><td>" +
            (g.contains("label") ? EscapeMarkup(g["label"].dump()) : "-") + "</td></tr>\n";
  }
  body += "</tbody>\n</table>\n" + Pager(page, pages) +
          "<p>Reports in the last hour count what this daemon stored since it started.</p>\n";
  return ConsolePage(200, "Graphs", ConsoleSection::kGraphs, body);
}

HttpResponse GraphPage(ServiceContext& ctx, const std::string& id_text) {
  const std::optional<std::uint64_t> id = ParseGraphId(id_text);
  auto graph = id ? ctx.graphs.Find(*id) : nullptr;
  if (!graph) {
    return ConsolePage(404, "No such graph", ConsoleSection::kGraphs,
                       "<p>There is no graph " + EscapeMarkup(id_text) + ". <a href=\"/console/graphs\">All graphs</a>.</p>\n");
  }
  Result<json> list = AdminJson(ctx, "/v1/admin/graphs");
  if (!list.ok()) return UnavailablePage("Graph " + id_text, list.status().message());
  json entry;
  for (const json& g : (*list)["graphs"]) {
    if (g["graph_id"].get<std::uint64_t>() == *id) entry = g;
  }
  if (entry.is_null()) return UnavailablePage("Graph " + id_text, "the admin API does not list it");
  const std::string title = "Graph " + std::to_string(*id);
  std::string body = "<dl class=\"facts\">\n<dt>collects</dt><dd>" + EscapeMarkup(Kind(entry)) + "</dd>\n<dt>users</dt><dd>" +
                     Grouped(entry["num_users"].get<std::uint64_t>()) + "</dd>\n<dt>reports stored</dt><dd>" +
                     Grouped(entry["reports"].get<std::uint64_t>()) + "</dd>\n<dt>reports in the last hour</dt><dd>" +
                     Grouped(ctx.report_rate.LastHour(*id, ReportRate::Now())) + " (this daemon)</dd>\n" +
                     "<dt>rounds</dt><dd>" + EscapeMarkup(RoundsCell(entry)) + "</dd>\n<dt>symmetrised by</dt><dd>" +
                     EscapeMarkup(entry["symmetrise"].get<std::string>()) + "</dd>\n</dl>\n";
  body += "<h2>Privacy, in plain words</h2>\n" + PrivacyInWords(graph->config, graph->rounds);
  body += "<h2>The policy devices fetch</h2>\n<pre>" + EscapeMarkup(entry["config"].dump(2)) + "</pre>\n";
  if (entry.contains("rounds")) body += "<h2>Rounds</h2>\n<pre>" + EscapeMarkup(entry["rounds"].dump(2)) + "</pre>\n";
  return ConsolePage(200, title, ConsoleSection::kGraphs, body);
}

}  // namespace ldpgraph
