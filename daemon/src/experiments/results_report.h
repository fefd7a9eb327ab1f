// docs/results.md from a folder of experiment outputs: one section per
// subfolder holding a summary.csv (in name order; first rewritten, with the
// charts, from the subfolder's results.csv, so a study stopped midway shows
// every run it finished), with its about.md (what
// was run, by which command) if present, the summary as a table and every
// SVG chart of the subfolder linked as an image.
#ifndef LDPGRAPH_DAEMON_EXPERIMENTS_RESULTS_REPORT_H_
#define LDPGRAPH_DAEMON_EXPERIMENTS_RESULTS_REPORT_H_

#include <string>

#include "ldpgraph/status.h"

namespace ldpgraph {

// Returns the Markdown; image and file links are relative to `link_prefix`
// (the results folder as seen from where the Markdown will live).
Result<std::string> RenderResultsReport(const std::string& results_dir, const std::string& link_prefix);

// A table cell as the report shows it: whole numbers as written, other
// numbers to 4 significant digits below 10^4 and rounded to whole ones
// above, anything else as written.
std::string ReportCell(const std::string& text);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_EXPERIMENTS_RESULTS_REPORT_H_
