#include "experiments/summary_charts.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "experiments/results_table.h"
#include "experiments/svg_plot.h"

namespace ldpgraph {
namespace {

std::size_t IndexOf(const std::vector<std::string>& names, const std::string& name) {
  return static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin());
}

}  // namespace

std::string ChartFilePart(const std::string& s) {
  std::string out;
  for (char c : s) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-') ? c : '_';
  return out;
}

Result<std::vector<std::string>> WriteCharts(const std::string& out_dir, const std::vector<std::string>& group,
                                             const std::vector<std::string>& metrics,
                                             const std::vector<SummaryRow>& summary, const ChartRequest& request) {
  const std::size_t xi = IndexOf(group, request.x_column), si = IndexOf(group, request.series_column);
  const std::size_t mi = IndexOf(metrics, request.metric);
  if (xi == group.size() || si == group.size() || mi == metrics.size()) {
    return Status::InvalidArgument("a chart over a column the summary lacks");
  }
  // Charts keyed by the values of the other columns.
  std::map<CsvRow, std::vector<const SummaryRow*>> charts;
  for (const SummaryRow& s : summary) {
    CsvRow fixed;
    for (std::size_t i = 0; i < group.size(); ++i) {
      if (i != xi && i != si) fixed.push_back(s.setting[i]);
    }
    charts[fixed].push_back(&s);
  }
  std::vector<std::string> written;
  for (const auto& [fixed, rows] : charts) {
    std::set<double> finite_x;
    for (const SummaryRow* s : rows) {
      const double x = ParseNumber(s->setting[xi]);
      if (std::isfinite(x)) finite_x.insert(x);
    }
    if (finite_x.size() < 2) continue;
    const double x_lo = *finite_x.begin(), x_hi = *finite_x.rbegin();

    std::vector<std::string> order;
    std::map<std::string, std::vector<const SummaryRow*>> by_series;
    for (const SummaryRow* s : rows) {
      if (!by_series.count(s->setting[si])) order.push_back(s->setting[si]);
      by_series[s->setting[si]].push_back(s);
    }
    std::vector<PlotSeries> series;
    for (const std::string& name : order) {
      std::vector<const SummaryRow*> points = by_series[name];
      std::sort(points.begin(), points.end(), [&](const SummaryRow* a, const SummaryRow* b) {
        return ParseNumber(a->setting[xi]) < ParseNumber(b->setting[xi]);
      });
      PlotSeries line{name, {}, {}, {}};
      for (const SummaryRow* p : points) {
        const double x = ParseNumber(p->setting[xi]);
        if (std::isinf(x)) {  // no privacy: a reference line of its own
          series.push_back({name + " (" + request.x_column + " = inf)", {x_lo, x_hi},
                            {p->mean[mi], p->mean[mi]}, {}});
          continue;
        }
        line.x.push_back(x);
        line.y.push_back(p->mean[mi]);
        line.err.push_back(p->stddev[mi]);
      }
      if (!line.x.empty()) series.push_back(std::move(line));
    }
    std::string title, file = request.metric + "_vs_" + request.x_column + "_";
    std::size_t k = 0;
    for (std::size_t i = 0; i < group.size(); ++i) {
      if (i == xi || i == si) continue;
      title += (title.empty() ? "" : ", ") + group[i] + " = " + fixed[k];
      file += "_" + ChartFilePart(fixed[k]);
      ++k;
    }
    file += ".svg";
    PlotSpec spec;
    spec.title = title;
    spec.x_label = request.x_label;
    spec.y_label = "test " + request.metric + " (mean, std over splits)";
    spec.log_x = request.log_x;
    spec.log_y = request.log_y;
    LDPGRAPH_RETURN_IF_ERROR(WriteSvg(out_dir + "/" + file, spec, series));
    written.push_back(file);
  }
  return written;
}

Status SummariseStudy(const std::string& out_dir, const CsvRow& columns, const std::vector<std::size_t>& key_columns,
                      const std::vector<std::string>& group, const std::vector<std::string>& metrics,
                      const std::vector<ChartRequest>& charts) {
  Result<std::unique_ptr<ResultsTable>> table = ResultsTable::OpenReadOnly(out_dir + "/results.csv", columns, key_columns);
  if (!table.ok()) return table.status();
  Result<std::vector<SummaryRow>> summary = Summarise(columns, (*table)->Rows(), group, metrics);
  if (!summary.ok()) return summary.status();
  LDPGRAPH_RETURN_IF_ERROR(WriteSummary(out_dir + "/summary.csv", group, metrics, *summary));
  for (const ChartRequest& chart : charts) {
    Result<std::vector<std::string>> files = WriteCharts(out_dir, group, metrics, *summary, chart);
    if (!files.ok()) return files.status();
  }
  return Status::Ok();
}

}  // namespace ldpgraph
