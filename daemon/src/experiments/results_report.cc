#include "experiments/results_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <dirent.h>
#include <fstream>
#include <set>
#include <sstream>
#include <utility>
#include <vector>

#include "experiments/dprr_experiment.h"
#include "experiments/lpgnn_experiment.h"
#include "experiments/results_table.h"
#include "experiments/rounds_experiment.h"
#include "experiments/scaling_experiment.h"

namespace ldpgraph {
namespace {

std::vector<std::string> Entries(const std::string& dir) {
  std::vector<std::string> names;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (dirent* e = ::readdir(d)) {
      const std::string name = e->d_name;
      if (name != "." && name != "..") names.push_back(name);
    }
    ::closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

bool ReadText(const std::string& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::stringstream s;
  s << in.rdbuf();
  *out = s.str();
  return true;
}

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// "Training: N runs, X h summed" for results with a train_seconds column, or
// "". A row copied from another setting's training (the nonpriv baselines,
// --reuse) repeats that training's exact time and split: counted once.
// Resuming over several sessions leaves about.md with the last session's
// time only; this sum is the whole study's.
std::string TrainingTime(const std::string& results) {
  std::istringstream lines(results);
  std::string line;
  if (!std::getline(lines, line)) return "";
  const CsvRow header = SplitCsvLine(line);
  const auto seconds_at = std::find(header.begin(), header.end(), "train_seconds");
  const auto split_at = std::find(header.begin(), header.end(), "split");
  if (seconds_at == header.end() || split_at == header.end()) return "";
  const auto seconds_col = static_cast<std::size_t>(seconds_at - header.begin());
  const auto split_col = static_cast<std::size_t>(split_at - header.begin());
  std::set<std::pair<std::string, std::string>> seen;
  double total = 0;
  while (std::getline(lines, line)) {
    const CsvRow row = SplitCsvLine(line);
    if (row.size() != header.size() || !seen.insert({row[split_col], row[seconds_col]}).second) continue;
    const double s = ParseNumber(row[seconds_col]);
    if (std::isfinite(s)) total += s;
  }
  if (seen.empty()) return "";
  char buf[160];
  std::snprintf(buf, sizeof(buf), "Training: %zu runs, %.1f h of run time summed (runs side by side share the cores).\n\n",
                seen.size(), total / 3600);
  return buf;
}

// Rewrites a study's summary.csv and charts from its results.csv, so a study
// stopped midway (or resumed by hand) shows every run it has. The kind of
// study is told by its results' header; folders without results.csv (the
// degree study writes its summary directly) are left as they are.
Status RefreshSummary(const std::string& dir) {
  std::ifstream in(dir + "/results.csv");
  std::string line;
  if (!in || !std::getline(in, line)) return Status::Ok();
  const CsvRow header = SplitCsvLine(line);
  if (header == DprrResultsColumns()) return SummariseDprrExperiment(dir);
  if (header == LpgnnResultsColumns()) return SummariseLpgnnExperiment(dir);
  if (header == ScalingResultsColumns()) return SummariseScalingExperiment(dir);
  if (header == RoundsResultsColumns()) return SummariseRoundsExperiment(dir);
  return Status::Ok();
}

}  // namespace

std::string ReportCell(const std::string& text) {
  const double v = ParseNumber(text);
  if (std::isnan(v) || std::isinf(v) || v == std::floor(v)) return text;
  char buf[32];
  // Means of large counts (noisy edges over splits) as whole numbers, not
  // 4.998e+06 beside a neighbouring row's 4998003.
  std::snprintf(buf, sizeof(buf), std::fabs(v) >= 1e4 ? "%.0f" : "%.4g", v);
  return buf;
}

Result<std::string> RenderResultsReport(const std::string& results_dir, const std::string& link_prefix) {
  std::string md;
  int sections = 0;
  for (const std::string& name : Entries(results_dir)) {
    const std::string dir = results_dir + "/" + name;
    LDPGRAPH_RETURN_IF_ERROR(RefreshSummary(dir));
    std::string summary;
    if (!ReadText(dir + "/summary.csv", &summary)) continue;
    ++sections;
    std::string about;
    if (ReadText(dir + "/about.md", &about)) {
      md += about;
      if (!EndsWith(about, "\n")) md += "\n";
    } else {
      md += "## " + name + "\n";
    }
    md += "\n";
    std::string results;
    if (ReadText(dir + "/results.csv", &results)) md += TrainingTime(results);
    std::istringstream lines(summary);
    std::string line;
    bool header = true;
    while (std::getline(lines, line)) {
      if (line.empty()) continue;
      const CsvRow row = SplitCsvLine(line);
      md += "|";
      for (const std::string& cell : row) md += " " + (header ? cell : ReportCell(cell)) + " |";
      md += "\n";
      if (header) {
        md += "|";
        for (std::size_t i = 0; i < row.size(); ++i) md += "---|";
        md += "\n";
        header = false;
      }
    }
    md += "\nFiles: [summary.csv](" + link_prefix + "/" + name + "/summary.csv)";
    if (!results.empty()) md += ", [results.csv](" + link_prefix + "/" + name + "/results.csv)";
    md += "\n\n";
    for (const std::string& file : Entries(dir)) {
      if (EndsWith(file, ".svg")) md += "![" + file + "](" + link_prefix + "/" + name + "/" + file + ")\n";
    }
    md += "\n";
  }
  if (sections == 0) return Status::InvalidArgument("no experiment results (a subfolder with summary.csv) in " + results_dir);
  return md;
}

}  // namespace ldpgraph
