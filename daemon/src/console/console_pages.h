// The console's pages (console.h routes to them, once the visitor is known
// to be the admin). Each reads what the admin API answers (admin_json.h).
#ifndef LDPGRAPH_DAEMON_CONSOLE_CONSOLE_PAGES_H_
#define LDPGRAPH_DAEMON_CONSOLE_CONSOLE_PAGES_H_

#include <cstdint>
#include <string>

#include "api/service_context.h"
#include "net/http_types.h"

namespace ldpgraph {

constexpr std::uint64_t kGraphsPerPage = 100;

// The daemon at a glance: the store's health, reports, graphs, the memory
// budget, training.
HttpResponse OverviewPage(ServiceContext& ctx);
// Graphs `page` (from 1), kGraphsPerPage a page: users, reports, reports in
// the last hour, rounds.
HttpResponse GraphsPage(ServiceContext& ctx, std::uint64_t page);
// One graph: its figures and its privacy policy in plain words.
HttpResponse GraphPage(ServiceContext& ctx, const std::string& id_text);
// Every job with its progress; refreshes itself while one is not over.
HttpResponse JobsPage(ServiceContext& ctx);
// Every model version with its accuracy, and a chart of them.
HttpResponse ModelsPage(ServiceContext& ctx);
// That chart (SVG): test accuracy by version, one line per task.
HttpResponse ModelsChart(ServiceContext& ctx);

// A page saying what could not be read (503), for any page above.
HttpResponse UnavailablePage(const std::string& title, const std::string& message);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_CONSOLE_CONSOLE_PAGES_H_
