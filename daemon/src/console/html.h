// The console's HTML: number formats, and the frame every page shares (its
// navigation, a skip link, one style sheet from the daemon itself). Pages
// are plain HTML, readable without colour and with the keyboard alone.
#ifndef LDPGRAPH_DAEMON_CONSOLE_HTML_H_
#define LDPGRAPH_DAEMON_CONSOLE_HTML_H_

#include <cstdint>
#include <string>

#include "net/http_types.h"
#include "util/markup_escape.h"  // EscapeMarkup, for every page

namespace ldpgraph {

// A number as the console shows it: grouped thousands ("12,345").
std::string Grouped(std::uint64_t n);
// A fraction in [0, 1] with 3 decimals ("0.812"); "-" for a negative one.
std::string Fixed3(double x);

// Which navigation entry a page is (marked aria-current).
enum class ConsoleSection { kOverview, kGraphs, kJobs, kModels, kNone };

// A whole page: <head>, the navigation (with the sign-out form when
// signed in), then `body` inside <main>. `refresh_seconds` > 0 reloads the
// page (live job progress without a script).
HttpResponse ConsolePage(int status, const std::string& title, ConsoleSection section, const std::string& body,
                         bool signed_in = true, int refresh_seconds = 0);

// The style sheet at /console/console.css, and the icon at /console/favicon.svg.
HttpResponse ConsoleStyleSheet();
HttpResponse ConsoleIcon();

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_CONSOLE_HTML_H_
