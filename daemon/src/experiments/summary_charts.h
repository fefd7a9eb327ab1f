// Charts from a summary: one metric against one setting column, one series
// per value of another, one chart per combination of the remaining columns.
#ifndef LDPGRAPH_DAEMON_EXPERIMENTS_SUMMARY_CHARTS_H_
#define LDPGRAPH_DAEMON_EXPERIMENTS_SUMMARY_CHARTS_H_

#include <string>
#include <vector>

#include "experiments/summary.h"

namespace ldpgraph {

struct ChartRequest {
  std::string x_column;       // e.g. "epsilon"
  std::string series_column;  // e.g. "mechanism"
  std::string metric;         // one of the summary's metrics, e.g. "accuracy"
  std::string x_label;
  bool log_x = false;
  bool log_y = false;
};

// `s` with every character but letters, digits, '.' and '-' made '_': a
// safe part of a chart's file name.
std::string ChartFilePart(const std::string& s);

// Writes OUT_DIR/<metric>_vs_<x_column>__<fixed values>.svg for every
// combination of the other group columns with two or more finite x values
// (mean with a standard-deviation bar per point). A series whose x is inf
// (no privacy) is drawn as a flat reference line over the finite range.
// Returns the file names written (relative to out_dir).
Result<std::vector<std::string>> WriteCharts(const std::string& out_dir, const std::vector<std::string>& group,
                                             const std::vector<std::string>& metrics,
                                             const std::vector<SummaryRow>& summary, const ChartRequest& request);

// What every study does once its runs are in: reads OUT_DIR/results.csv
// (read-only), writes OUT_DIR/summary.csv (mean and standard deviation of
// `metrics` per `group`) and the charts `charts` asks for.
Status SummariseStudy(const std::string& out_dir, const CsvRow& columns, const std::vector<std::size_t>& key_columns,
                      const std::vector<std::string>& group, const std::vector<std::string>& metrics,
                      const std::vector<ChartRequest>& charts);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_EXPERIMENTS_SUMMARY_CHARTS_H_
