// ResultsTable: an experiment's results.csv, one row per finished run,
// appended and fsynced as each run ends, so a killed experiment loses at
// most the run in progress and a rerun skips every row already present.
//
// The key columns identify a run (dataset, mechanism, epsilon, ..., split);
// the rest are its measurements (and choices made during the run). A torn last line (a crash in
// the middle of a write) is cut off when the file is opened.
// Thread-safety: Append(), Has() and Find() may be called from several threads.
#ifndef LDPGRAPH_DAEMON_EXPERIMENTS_RESULTS_TABLE_H_
#define LDPGRAPH_DAEMON_EXPERIMENTS_RESULTS_TABLE_H_

#include <cstddef>
#include <memory>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "ldpgraph/status.h"

namespace ldpgraph {

using CsvRow = std::vector<std::string>;

class ResultsTable {
 public:
  // Opens `path`, creating it with `columns` as its header, or checks that
  // an existing file has exactly that header. Errors: kInvalidArgument for a
  // header that differs or a row with the wrong number of fields (with the
  // line), kUnavailable for I/O.
  static Result<std::unique_ptr<ResultsTable>> Open(const std::string& path, const CsvRow& columns,
                                                    std::vector<std::size_t> key_columns);
  // The rows of an existing file, without creating, repairing or appending
  // (a torn last line is left out): for summaries, reports and --reuse,
  // which may read while a study is still writing. Errors as Open, and
  // kInvalidArgument for a missing file.
  static Result<std::unique_ptr<ResultsTable>> OpenReadOnly(const std::string& path, const CsvRow& columns,
                                                            std::vector<std::size_t> key_columns);
  ~ResultsTable();
  ResultsTable(const ResultsTable&) = delete;
  ResultsTable& operator=(const ResultsTable&) = delete;

  // True if a row with this key (the values of the key columns, in the
  // order they were given to Open) is present.
  bool Has(const CsvRow& key) const;
  // The row with this key, if present.
  std::optional<CsvRow> Find(const CsvRow& key) const;
  // Appends and fsyncs one row. Errors: kInvalidArgument for a wrong field
  // count or a field with a comma, quote or line break; kUnavailable for I/O.
  Status Append(const CsvRow& row);
  // Every row, in file order.
  std::vector<CsvRow> Rows() const;
  const CsvRow& columns() const { return columns_; }
  const std::string& path() const { return path_; }

 private:
  ResultsTable() = default;
  // Parses the file (if it exists) into a table without a file descriptor.
  static Result<std::unique_ptr<ResultsTable>> Load(const std::string& path, const CsvRow& columns,
                                                    std::vector<std::size_t> key_columns, bool* exists, bool* torn,
                                                    std::string* complete_text);
  std::string KeyOfRow(const CsvRow& row) const;

  std::string path_;
  CsvRow columns_;
  std::vector<std::size_t> key_columns_;
  int fd_ = -1;
  mutable std::mutex mu_;
  std::vector<CsvRow> rows_;
  std::map<std::string, std::size_t> keys_;  // key -> index in rows_
};

// Splits one CSV line at commas (no quoting: our tables never need it).
CsvRow SplitCsvLine(const std::string& line);

// Creates the experiment's output folder and its parents if they are missing.
Status MakeOutputDirectory(const std::string& path);

// Formats a measurement for a table: shortest round-trip form of a double.
std::string FormatNumber(double value);
// Parses a number written by FormatNumber (also "inf"); NaN if it is not one.
double ParseNumber(const std::string& text);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_EXPERIMENTS_RESULTS_TABLE_H_
