// The overview, the jobs and the models.
#include <algorithm>
#include <map>

#include "console/admin_json.h"
#include "console/console_pages.h"
#include "console/html.h"
#include "experiments/svg_plot.h"
#include "net/storage_failure.h"

namespace ldpgraph {
namespace {

using nlohmann::json;

std::string Fact(const std::string& term, const std::string& value) {
  return "<dt>" + EscapeMarkup(term) + "</dt><dd>" + value + "</dd>\n";
}

std::string Percent(std::uint64_t part, std::uint64_t whole) {
  return whole == 0 ? "0%" : std::to_string(static_cast<int>(100.0 * static_cast<double>(part) / whole + 0.5)) + "%";
}

bool Over(const std::string& state) { return state == "succeeded" || state == "failed" || state == "cancelled"; }

}  // namespace

HttpResponse UnavailablePage(const std::string& title, const std::string& message) {
  return ConsolePage(503, title, ConsoleSection::kNone,
                     "<p class=\"warning\">The daemon could not read this now: " + EscapeMarkup(message) +
                         ". Reload the page to try again.</p>\n");
}

HttpResponse OverviewPage(ServiceContext& ctx) {
  Result<json> graphs = AdminJson(ctx, "/v1/admin/graphs");
  Result<json> jobs = AdminJson(ctx, "/v1/admin/jobs");
  Result<json> models = AdminJson(ctx, "/v1/admin/models");
  const Status ready = ctx.store->CheckReady();
  const Metrics& m = ctx.metrics;
  std::string body = "<h2>Store</h2>\n<dl class=\"facts\">\n";
  body += Fact("backend", ctx.store->Shared() ? "PostgreSQL, shared with the other daemons" : "SQLite, this daemon's own");
  body += Fact("state", ready.ok() ? "<span class=\"state\">ready</span>: reports sent now are stored"
                                   : "<span class=\"state\">not ready</span>: " + EscapeMarkup(ready.message()));
  body += Fact("commits", Grouped(m.store_commits.load()));
  body += Fact("failed writes", Grouped(StorageFailures()));
  if (ctx.draining.load()) body += Fact("daemon", "<span class=\"state\">stopping</span> (SIGTERM): finishing what is in flight");
  body += "</dl>\n<h2>Reports</h2>\n<dl class=\"facts\">\n";
  std::uint64_t refused = 0;
  for (const auto& r : m.reports_rejected) refused += r.load();
  body += Fact("stored", Grouped(m.reports_stored.load()));
  body += Fact("duplicates acknowledged", Grouped(m.reports_duplicate.load()));
  body += Fact("refused", Grouped(refused) + " (by reason: <code>/metrics</code>, ldpgraph_reports_rejected_total)");
  if (graphs.ok()) {
    std::uint64_t users = 0, reports = 0;
    for (const json& g : (*graphs)["graphs"]) {
      users += g["num_users"].get<std::uint64_t>();
      reports += g["reports"].get<std::uint64_t>();
    }
    body += Fact("graphs", "<a href=\"/console/graphs\">" + Grouped((*graphs)["graphs"].size()) + "</a> with " +
                               Grouped(users) + " users and " + Grouped(reports) + " reports in the store");
  } else {
    body += Fact("graphs", "unavailable: " + EscapeMarkup(graphs.status().message()));
  }
  const std::uint64_t budget = m.memory_budget_bytes.load(), leased = m.memory_leased_bytes.load();
  body += "</dl>\n<h2>Memory budget</h2>\n<p>Heavy admin work (GAP jobs, GW queries, predictions, uploads) holds " +
          Grouped(leased / (1 << 20)) + " MB of " + Grouped(budget / (1 << 20)) + " MB (" + Percent(leased, budget) +
          "). <progress max=\"" + std::to_string(budget) + "\" value=\"" + std::to_string(leased) +
          "\" aria-label=\"memory budget leased\">" + Percent(leased, budget) + "</progress></p>\n";
  body += "<h2>Training</h2>\n<dl class=\"facts\">\n";
  body += Fact("this daemon", m.training_leader.load() == 1 ? "runs the training jobs"
                                                            : "does not run training jobs now (another daemon leads)");
  body += Fact("running", Grouped(static_cast<std::uint64_t>(std::max<std::int64_t>(0, m.jobs_running.load()))));
  body += Fact("ended", Grouped(m.jobs_succeeded.load()) + " succeeded, " + Grouped(m.jobs_failed.load()) +
                            " failed, " + Grouped(m.jobs_cancelled.load()) + " cancelled (since this daemon started)");
  if (jobs.ok()) body += Fact("jobs", "<a href=\"/console/jobs\">" + Grouped((*jobs)["jobs"].size()) + " kept</a>");
  if (models.ok()) {
    body += Fact("model versions", "<a href=\"/console/models\">" + Grouped((*models)["models"].size()) + "</a>");
  }
  body += "</dl>\n";
  return ConsolePage(200, "Overview", ConsoleSection::kOverview, body);
}

HttpResponse JobsPage(ServiceContext& ctx) {
  Result<json> jobs = AdminJson(ctx, "/v1/admin/jobs");
  if (!jobs.ok()) return UnavailablePage("Jobs", jobs.status().message());
  bool live = false;
  std::string rows;
  const json& list = (*jobs)["jobs"];
  for (auto it = list.rbegin(); it != list.rend(); ++it) {  // newest first
    const json& j = *it;
    const std::string state = j["state"];
    live = live || !Over(state);
    const int epoch = j["epoch"], max_epochs = j["max_epochs"];
    std::string progress = "-";
    if (!Over(state) && max_epochs > 0) {
      progress = "<progress max=\"" + std::to_string(max_epochs) + "\" value=\"" + std::to_string(epoch) +
                 "\" aria-label=\"job " + std::to_string(j["job_id"].get<std::uint64_t>()) + " epochs\"></progress> epoch " +
                 std::to_string(epoch) + " of " + std::to_string(max_epochs);
    } else if (max_epochs > 0) {
      progress = std::to_string(epoch) + " epochs";
    }
    std::string outcome = j.contains("test_accuracy") ? "test accuracy " + Fixed3(j["test_accuracy"].get<double>()) : "";
    if (j.contains("model_version")) {
      outcome += ", <a href=\"/console/models\">model " + std::to_string(j["model_version"].get<std::uint64_t>()) + "</a>";
    }
    if (j.contains("error")) outcome += EscapeMarkup(j["error"].get<std::string>());
    rows += "<tr><th scope=\"row\">" + std::to_string(j["job_id"].get<std::uint64_t>()) + "</th><td>" +
            EscapeMarkup(j["task"].get<std::string>()) + "</td><td><span class=\"state state-" + EscapeMarkup(state) + "\">" +
            EscapeMarkup(state) + "</span></td><td>" + progress + "</td><td class=\"n\">" +
            Fixed3(j["val_accuracy"].get<double>()) + "</td><td>" + (outcome.empty() ? "-" : outcome) +
            "</td><td class=\"n\">" + std::to_string(static_cast<long>(j["seconds"].get<double>())) + " s</td></tr>\n";
  }
  std::string body = list.empty() ? "<p>No jobs yet: <code>ldpgraph daemon train</code> starts one.</p>\n" : "";
  if (!list.empty()) {
    body += "<table>\n<caption>Jobs, newest first</caption>\n<thead><tr><th scope=\"col\">job</th>"
            "<th scope=\"col\">task</th><th scope=\"col\">state</th><th scope=\"col\">progress</th>"
            "<th scope=\"col\" class=\"n\">validation accuracy</th><th scope=\"col\">result</th>"
            "<th scope=\"col\" class=\"n\">time</th></tr></thead>\n<tbody>\n" + rows + "</tbody>\n</table>\n";
  }
  if (live) body += "<p>A job is not over: this page reloads every 2 seconds.</p>\n";
  return ConsolePage(200, "Jobs", ConsoleSection::kJobs, body, true, live ? 2 : 0);
}

HttpResponse ModelsPage(ServiceContext& ctx) {
  Result<json> models = AdminJson(ctx, "/v1/admin/models");
  if (!models.ok()) return UnavailablePage("Models", models.status().message());
  const json& list = (*models)["models"];
  if (list.empty()) {
    return ConsolePage(200, "Models", ConsoleSection::kModels,
                       "<p>No model versions yet: each training job that succeeds adds one.</p>\n");
  }
  std::string body =
      "<p><img src=\"/console/models/chart.svg\" width=\"640\" height=\"400\" alt=\"Test accuracy of each model "
      "version, one line per task; the table below has every figure.\"></p>\n<table>\n<caption>Model versions"
      "</caption>\n<thead><tr><th scope=\"col\">version</th><th scope=\"col\">task</th><th scope=\"col\">model</th>"
      "<th scope=\"col\">graphs</th><th scope=\"col\" class=\"n\">test accuracy</th><th scope=\"col\" class=\"n\">"
      "users</th><th scope=\"col\">from job</th></tr></thead>\n<tbody>\n";
  for (auto it = list.rbegin(); it != list.rend(); ++it) {
    const json& v = *it;
    const std::string graphs = v.contains("graphs") ? Grouped(v["graphs"].size()) : "-";
    body += "<tr><th scope=\"row\">" + std::to_string(v["version"].get<std::uint64_t>()) + "</th><td>" +
            EscapeMarkup(v.value("task", std::string("-"))) + "</td><td>" + EscapeMarkup(v.value("model", std::string("-"))) +
            "</td><td class=\"n\">" + graphs + "</td><td class=\"n\">" + Fixed3(v.value("test_accuracy", -1.0)) +
            "</td><td class=\"n\">" + (v.contains("users") ? Grouped(v["users"].get<std::uint64_t>()) : "-") +
            "</td><td>" + (v.contains("job_id") ? std::to_string(v["job_id"].get<std::uint64_t>()) : "-") +
            "</td></tr>\n";
  }
  body += "</tbody>\n</table>\n<p>Test accuracy counts against the labels the server holds: randomized ones "
          "when the graph randomizes labels.</p>\n";
  return ConsolePage(200, "Models", ConsoleSection::kModels, body);
}

HttpResponse ModelsChart(ServiceContext& ctx) {
  Result<json> models = AdminJson(ctx, "/v1/admin/models");
  std::map<std::string, PlotSeries> by_task;
  if (models.ok()) {
    for (const json& v : (*models)["models"]) {
      PlotSeries& s = by_task[v.value("task", std::string("graph"))];
      s.name = v.value("task", std::string("graph")) + " (" + v.value("model", std::string("?")) + ")";
      s.x.push_back(static_cast<double>(v["version"].get<std::uint64_t>()));
      s.y.push_back(v.value("test_accuracy", 0.0));
    }
  }
  PlotSpec spec;
  spec.title = "Test accuracy by model version";
  spec.x_label = "model version";
  spec.y_label = "test accuracy";
  spec.has_y_range = true;
  std::vector<PlotSeries> series;
  for (auto& [task, s] : by_task) series.push_back(std::move(s));
  HttpResponse r;
  r.content_type = "image/svg+xml";
  r.body = RenderSvg(spec, series);
  r.headers.emplace_back("Cache-Control", "no-store");
  r.headers.emplace_back("X-Content-Type-Options", "nosniff");
  return r;
}

}  // namespace ldpgraph
