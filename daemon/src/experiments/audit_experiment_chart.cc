#include "experiments/audit_experiment_chart.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <utility>

#include "experiments/results_table.h"
#include "experiments/svg_plot.h"

namespace ldpgraph {
namespace {

// Setting columns of the summary: dataset, system, attack, epsilon.
struct Point {
  double epsilon, auc, auc_sd, bound;
};
using Curves = std::map<std::pair<std::string, std::string>, std::vector<Point>>;  // (system, attack) -> points

std::size_t MetricIndex(const std::vector<std::string>& metrics, const std::string& name) {
  return static_cast<std::size_t>(std::find(metrics.begin(), metrics.end(), name) - metrics.begin());
}

// The measured AUC (with its deviation over splits) or the bound, per epsilon.
PlotSeries Series(const std::string& name, const std::vector<Point>& points, bool bound) {
  PlotSeries s;
  s.name = name;
  for (const Point& p : points) {
    s.x.push_back(p.epsilon);
    s.y.push_back(bound ? p.bound : p.auc);
    if (!bound) s.err.push_back(p.auc_sd);
  }
  return s;
}

// A non-private system's AUC as a flat line over the private range.
PlotSeries Flat(const std::string& name, double auc, double low, double high) {
  PlotSeries s;
  s.name = name;
  s.x = {low, high};
  s.y = {auc, auc};
  return s;
}

Status WriteChart(const std::string& path, const std::string& title, const Curves& curves,
                  const std::vector<std::pair<std::string, std::string>>& measured,
                  const std::vector<std::pair<std::string, std::vector<std::pair<std::string, std::string>>>>& bounds,
                  const std::vector<std::pair<std::string, std::string>>& references) {
  double low = INFINITY, high = 0;
  for (const auto& [key, points] : curves) {
    for (const Point& p : points) {
      if (std::isfinite(p.epsilon)) {
        low = std::min(low, p.epsilon);
        high = std::max(high, p.epsilon);
      }
    }
  }
  if (!std::isfinite(low)) return Status::Ok();  // no private run: nothing to draw against
  std::vector<PlotSeries> series;
  for (const auto& key : measured) {
    const auto it = curves.find(key);
    if (it != curves.end()) series.push_back(Series(key.first + " (" + key.second + ")", it->second, false));
  }
  for (const auto& [label, candidates] : bounds) {  // the first candidate that ran draws the bound
    for (const auto& key : candidates) {
      const auto it = curves.find(key);
      if (it == curves.end()) continue;
      series.push_back(Series("bound: " + label, it->second, true));
      break;
    }
  }
  for (const auto& key : references) {
    const auto it = curves.find(key);
    if (it != curves.end() && !it->second.empty()) {
      series.push_back(Flat(key.first + " (" + key.second + "), no privacy", it->second[0].auc, low, high));
    }
  }
  if (series.empty()) return Status::Ok();
  PlotSpec spec;
  spec.title = title;
  spec.x_label = "epsilon";
  spec.y_label = "attack AUC";
  spec.log_x = true;
  spec.has_y_range = true;
  spec.y_min = 0.4;
  spec.y_max = 1.0;
  return WriteSvg(path, spec, series);
}

}  // namespace

Status WriteAuditCharts(const std::string& out_dir, const std::vector<std::string>& metrics,
                        const std::vector<SummaryRow>& summary) {
  const std::size_t auc = MetricIndex(metrics, "auc"), bound = MetricIndex(metrics, "bound");
  if (auc >= metrics.size() || bound >= metrics.size()) return Status::InvalidArgument("no auc or bound metric");
  std::map<std::string, Curves> by_dataset;
  for (const SummaryRow& row : summary) {
    if (row.setting.size() != 4) return Status::InvalidArgument("an audit summary row has 4 setting columns");
    by_dataset[row.setting[0]][{row.setting[1], row.setting[2]}].push_back(
        {ParseNumber(row.setting[3]), row.mean[auc], row.stddev[auc], row.mean[bound]});
  }
  for (const auto& [dataset, curves] : by_dataset) {
    LDPGRAPH_RETURN_IF_ERROR(WriteChart(
        out_dir + "/edge_attacks__" + dataset + ".svg", dataset + ": attacks on one edge (kept vs removed targets)",
        curves,
        {{"dprr", "report"}, {"rr", "report"}, {"blink", "posterior"}, {"ours", "posterior"}, {"gap-edp", "lsa"},
         {"gap-ndp", "lsa"}},
        {{"edge LDP, 2 epsilon", {{"dprr", "report"}, {"rr", "report"}, {"blink", "posterior"}, {"ours", "posterior"}}},
         {"GAP-EDP (epsilon, delta)", {{"gap-edp", "lsa"}}},
         {"GAP-NDP per edge (2 epsilon by group privacy)", {{"gap-ndp", "lsa"}}}},
        {{"gcn", "linkteller"}, {"gcn", "lsa"}, {"mlp", "lsa"}}));
    LDPGRAPH_RETURN_IF_ERROR(WriteChart(out_dir + "/membership__" + dataset + ".svg",
                                        dataset + ": membership of one user's label", curves,
                                        {{"gap-ndp", "mia"}, {"mlp-dp", "mia"}},
                                        {{"node level (epsilon, delta)", {{"gap-ndp", "mia"}, {"mlp-dp", "mia"}}}},
                                        {{"gcn", "mia"}, {"mlp", "mia"}}));
  }
  return Status::Ok();
}

}  // namespace ldpgraph
