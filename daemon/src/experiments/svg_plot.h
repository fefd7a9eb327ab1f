// Self-contained SVG charts for the experiments: lines with error bars
// (accuracy vs epsilon or alpha, time vs n on log axes) and scatter plots
// (true vs noisy degree). The files open in any browser, with nothing else.
#ifndef LDPGRAPH_DAEMON_EXPERIMENTS_SVG_PLOT_H_
#define LDPGRAPH_DAEMON_EXPERIMENTS_SVG_PLOT_H_

#include <string>
#include <vector>

#include "ldpgraph/status.h"

namespace ldpgraph {

struct PlotSeries {
  std::string name;
  std::vector<double> x, y;
  std::vector<double> err;  // half-height of each error bar; empty for none
};

struct PlotSpec {
  std::string title;
  std::string x_label, y_label;
  bool log_x = false, log_y = false;  // non-positive values are left out on a log axis
  bool scatter = false;                // points instead of lines with markers
  bool diagonal = false;               // draw y = x (a perfect estimate)
  bool has_y_range = false;            // fixed y range instead of the data's
  double y_min = 0, y_max = 1;
  // Categorical x: the series' x are indices 0..n-1 into these labels.
  std::vector<std::string> x_categories;
};

// The chart as SVG text. Series with no drawable point are listed in the
// legend only.
std::string RenderSvg(const PlotSpec& spec, const std::vector<PlotSeries>& series);

// RenderSvg, written whole to `path` (crash-safe replace).
Status WriteSvg(const std::string& path, const PlotSpec& spec, const std::vector<PlotSeries>& series);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_EXPERIMENTS_SVG_PLOT_H_
