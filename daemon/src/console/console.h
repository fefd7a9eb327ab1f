// The operator's web console, served by ldpgraphd on its TLS listener beside
// the API: read-only pages over what the admin API gives (graphs and their
// privacy in plain words, jobs with live progress, model versions, the
// memory budget, the store's health). Server-rendered HTML: no script,
// nothing from another site, usable with the keyboard alone and without
// colour.
//   GET  /console/                  the overview
//   GET  /console/graphs?page=N     every graph, 100 a page
//   GET  /console/graphs/{id}       one graph and its privacy policy in words
//   GET  /console/jobs              jobs; reloads itself while one is not over
//   GET  /console/models            model versions; /console/models/chart.svg
//   GET  /console/console.css       its style sheet and icon (no sign-in needed)
//   GET  /console/favicon.svg
//   GET, POST /console/login        sign in with the admin token
//   POST /console/logout            sign out
// Every other page needs the admin: a session cookie from the sign-in form
// (console_session.h) or the admin bearer header. Without either it answers
// 401 with the sign-in form, and shows nothing else.
#ifndef LDPGRAPH_DAEMON_CONSOLE_CONSOLE_H_
#define LDPGRAPH_DAEMON_CONSOLE_CONSOLE_H_

#include <string>

#include "api/service_context.h"
#include "net/http_types.h"

namespace ldpgraph {

// Whether `path` (no query) is the console's: /console or under /console/.
bool IsConsolePath(const std::string& path);

// Answers a console request (any method; 405 for the wrong one).
HttpResponse HandleConsole(ServiceContext& ctx, const HttpRequest& request);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_CONSOLE_CONSOLE_H_
