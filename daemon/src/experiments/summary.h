// summary.csv: the mean and sample standard deviation of each measurement
// over the splits of every setting of a results table.
#ifndef LDPGRAPH_DAEMON_EXPERIMENTS_SUMMARY_H_
#define LDPGRAPH_DAEMON_EXPERIMENTS_SUMMARY_H_

#include <string>
#include <vector>

#include "experiments/results_table.h"

namespace ldpgraph {

struct SummaryRow {
  CsvRow setting;             // the values of the group columns
  std::size_t runs = 0;
  std::vector<double> mean;   // one per metric
  std::vector<double> stddev; // sample standard deviation (n - 1); 0 for one run
};

// Groups `rows` (with header `columns`) by the `group` columns and
// summarises the `metrics` columns; settings sorted field by field (numbers
// numerically).
// Errors: kInvalidArgument for a column name not in the header.
Result<std::vector<SummaryRow>> Summarise(const CsvRow& columns, const std::vector<CsvRow>& rows,
                                          const std::vector<std::string>& group,
                                          const std::vector<std::string>& metrics);

// Writes the summary (header: group..., runs, m_mean, m_std for each metric)
// to `path`, replacing it whole.
Status WriteSummary(const std::string& path, const std::vector<std::string>& group,
                    const std::vector<std::string>& metrics, const std::vector<SummaryRow>& summary);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_EXPERIMENTS_SUMMARY_H_
