#include "experiments/rounds_summary.h"

#include <algorithm>
#include <cmath>

#include "experiments/results_table.h"
#include "base/durable_file.h"
#include "experiments/summary_charts.h"
#include "experiments/svg_plot.h"

namespace ldpgraph {
namespace {

using Methods = RoundsView::Methods;

// The summary's metrics, in the order the study writes them.
enum Metric : std::size_t { kAccuracy = 0, kLossMean = 2, kLossP99 = 3, kLossMax = 4 };

double RoundOf(const SummaryRow* row) { return ParseNumber(row->setting[5]); }

// A method's metric over its rounds; the edge-free row (round inf) becomes a
// flat line over [first, last].
PlotSeries Series(const std::string& name, const std::vector<const SummaryRow*>& rows, Metric metric, double first,
                  double last) {
  PlotSeries s{name, {}, {}, {}};
  for (const SummaryRow* row : rows) {
    const double round = RoundOf(row);
    if (std::isinf(round)) {
      s.x = {first, last};
      s.y = {row->mean[metric], row->mean[metric]};
      s.err.clear();
      return s;
    }
    s.x.push_back(round);
    s.y.push_back(row->mean[metric]);
    s.err.push_back(row->stddev[metric]);
  }
  return s;
}

double MeanOverRounds(const RoundsView::Methods& methods, const std::string& method) {
  auto it = methods.find(method);
  if (it == methods.end() || it->second.empty()) return NAN;
  double sum = 0;
  for (const SummaryRow* row : it->second) sum += row->mean[kAccuracy];
  return sum / static_cast<double>(it->second.size());
}

const SummaryRow* LastRound(const RoundsView::Methods& methods, const std::string& method) {
  auto it = methods.find(method);
  return it == methods.end() || it->second.empty() ? nullptr : it->second.back();
}

// One method's row of summary.csv after the setting's four columns.
std::string MethodRow(const std::string& method, const std::vector<const SummaryRow*>& rows) {
  double accuracy = 0;
  for (const SummaryRow* row : rows) accuracy += row->mean[kAccuracy];
  accuracy /= static_cast<double>(rows.size());
  const SummaryRow& first = *rows.front();
  const SummaryRow& last = *rows.back();
  const bool once = std::isinf(RoundOf(&last));  // edge-free: trained once
  std::string line = method + "," + (once ? "-" : last.setting[5]) + "," + FormatNumber(accuracy) + "," +
                     FormatNumber(first.mean[kAccuracy]) + "," + FormatNumber(last.mean[kAccuracy]);
  for (Metric m : {kLossMean, kLossP99, kLossMax}) line += "," + FormatNumber(last.mean[m]);
  return line + "\n";
}

}  // namespace

RoundsView::RoundsView(const std::vector<SummaryRow>& summary) {
  for (const SummaryRow& row : summary) {
    const CsvRow& k = row.setting;
    if (k[2] == kNoReports) {
      bars_[{k[0], k[1]}][k[4]].push_back(&row);
    } else {
      settings_[{k[0], k[1], k[2], k[3]}][k[4]].push_back(&row);
    }
  }
  for (auto* by : {&settings_, &bars_}) {
    for (auto& [setting, methods] : *by) {
      for (auto& [method, rows] : methods) {
        std::sort(rows.begin(), rows.end(),
                  [](const SummaryRow* a, const SummaryRow* b) { return RoundOf(a) < RoundOf(b); });
      }
    }
  }
}

const RoundsView::Methods& RoundsView::BarsOf(const CsvRow& setting) const {
  auto it = bars_.find({setting[0], setting[1]});
  return it == bars_.end() ? none_ : it->second;
}

Status WriteRoundsSummary(const std::string& path, const RoundsView& view) {
  std::string text =
      "dataset,model,mechanism,edge_epsilon,method,rounds,accuracy_mean,accuracy_first_round,accuracy_last_round,"
      "loss_mean,loss_p99,loss_max\n";
  for (const auto& [setting, methods] : view.settings()) {
    const std::string prefix = setting[0] + "," + setting[1] + "," + setting[2] + "," + setting[3] + ",";
    for (const char* m : {"memoised", "fresh"}) {
      if (methods.count(m)) text += prefix + MethodRow(m, methods.at(m));
    }
    const Methods& bars = view.BarsOf(setting);
    for (const char* m : {"true-graph", "edge-free"}) {
      if (bars.count(m)) text += prefix + MethodRow(m, bars.at(m));
    }
  }
  return base::WriteFileDurably(path, std::vector<std::uint8_t>(text.begin(), text.end()));
}

Status WriteRoundsCharts(const std::string& out_dir, const RoundsView& view) {
  for (const auto& [setting, methods] : view.settings()) {
    const Methods& bars = view.BarsOf(setting);
    double first = INFINITY, last = -INFINITY;
    for (const auto& [method, rows] : methods) {
      first = std::min(first, RoundOf(rows.front()));
      last = std::max(last, RoundOf(rows.back()));
    }
    std::string title, file;
    for (const std::string& part : setting) {
      title += (title.empty() ? "" : ", ") + part;
      file += "_" + ChartFilePart(part);
    }
    std::vector<PlotSeries> accuracy;
    for (const char* m : {"memoised", "fresh"}) {
      if (methods.count(m)) accuracy.push_back(Series(m, methods.at(m), kAccuracy, first, last));
    }
    for (const char* m : {"true-graph", "edge-free"}) {
      if (bars.count(m)) accuracy.push_back(Series(m, bars.at(m), kAccuracy, first, last));
    }
    PlotSpec spec;
    spec.title = title + ": accuracy over rounds while friend lists change";
    spec.x_label = "round";
    spec.y_label = "test accuracy (mean, std over splits)";
    LDPGRAPH_RETURN_IF_ERROR(WriteSvg(out_dir + "/accuracy_vs_round_" + file + ".svg", spec, accuracy));

    std::vector<PlotSeries> loss;
    if (methods.count("memoised")) {
      loss.push_back(Series("memoised, mean over users", methods.at("memoised"), kLossMean, first, last));
      loss.push_back(Series("memoised, 99th percentile", methods.at("memoised"), kLossP99, first, last));
      loss.push_back(Series("memoised, largest", methods.at("memoised"), kLossMax, first, last));
    }
    if (methods.count("fresh")) loss.push_back(Series("fresh noise every round", methods.at("fresh"), kLossMean, first, last));
    spec.title = title + ": each user's privacy loss";
    spec.y_label = "privacy loss (epsilon)";
    spec.log_y = true;
    LDPGRAPH_RETURN_IF_ERROR(WriteSvg(out_dir + "/loss_vs_round_" + file + ".svg", spec, loss));
  }
  return Status::Ok();
}

std::vector<std::string> RoundsFigures(const RoundsView& view) {
  std::vector<std::string> lines;
  for (const auto& [setting, methods] : view.settings()) {
    const Methods& bars = view.BarsOf(setting);
    std::string line = "setting=" + setting[0] + "/" + setting[1] + "/" + setting[2] + "/" + setting[3];
    const double truth = MeanOverRounds(bars, "true-graph");
    const double memoised = MeanOverRounds(methods, "memoised");
    line += " accuracy_true_graph=" + FormatNumber(truth) + " accuracy_memoised=" + FormatNumber(memoised) +
            " accuracy_fresh=" + FormatNumber(MeanOverRounds(methods, "fresh")) +
            " accuracy_edge_free=" + FormatNumber(MeanOverRounds(bars, "edge-free")) +
            " gap_to_true_graph=" + FormatNumber(truth - memoised);
    if (const SummaryRow* last = LastRound(methods, "memoised")) {
      line += " rounds=" + last->setting[5] + " loss_mean=" + FormatNumber(last->mean[kLossMean]) +
              " loss_p99=" + FormatNumber(last->mean[kLossP99]) + " loss_max=" + FormatNumber(last->mean[kLossMax]) +
              " loss_first_round=" + FormatNumber(methods.at("memoised").front()->mean[kLossMean]);
    }
    if (const SummaryRow* last = LastRound(methods, "fresh")) {
      line += " loss_naive=" + FormatNumber(last->mean[kLossMean]);
    }
    lines.push_back(line);
  }
  return lines;
}

}  // namespace ldpgraph
