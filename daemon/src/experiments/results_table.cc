#include "experiments/results_table.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/durable_file.h"

namespace ldpgraph {
namespace {

Status IoError(const std::string& what, const std::string& path) {
  return Status::Unavailable(what + " " + path + ": " + std::strerror(errno));
}

std::string JoinCsv(const CsvRow& row) {
  std::string line;
  for (std::size_t i = 0; i < row.size(); ++i) {
    if (i) line += ',';
    line += row[i];
  }
  return line;
}

}  // namespace

CsvRow SplitCsvLine(const std::string& line) {
  CsvRow fields;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = line.find(',', start);
    fields.push_back(line.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) return fields;
    start = comma + 1;
  }
}

Status MakeOutputDirectory(const std::string& path) {
  if (path.empty()) return Status::InvalidArgument("an empty output folder");
  // Like mkdir -p: every missing folder on the way, then the folder itself.
  for (std::size_t slash = path.find('/', 1); slash != std::string::npos; slash = path.find('/', slash + 1)) {
    const std::string parent = path.substr(0, slash);
    if (::mkdir(parent.c_str(), 0755) != 0 && errno != EEXIST) return IoError("cannot create", parent);
  }
  if (::mkdir(path.c_str(), 0755) != 0 && errno != EEXIST) return IoError("cannot create", path);
  return Status::Ok();
}

std::string FormatNumber(double value) {
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  if (std::isnan(value)) return "nan";
  char buf[32];
  for (int precision = 6; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof(buf), "%.*g", precision, value);
    if (std::strtod(buf, nullptr) == value) break;
  }
  return buf;
}

double ParseNumber(const std::string& text) {
  if (text.empty()) return std::nan("");
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  return *end == '\0' ? v : std::nan("");
}

Result<std::unique_ptr<ResultsTable>> ResultsTable::Load(const std::string& path, const CsvRow& columns,
                                                         std::vector<std::size_t> key_columns, bool* exists,
                                                         bool* torn, std::string* complete_text) {
  for (std::size_t k : key_columns) {
    if (k >= columns.size()) return Status::InvalidArgument("a key column beyond the header");
  }
  std::unique_ptr<ResultsTable> t(new ResultsTable());
  t->path_ = path;
  t->columns_ = columns;
  t->key_columns_ = std::move(key_columns);
  std::vector<std::uint8_t> bytes;
  LDPGRAPH_RETURN_IF_ERROR(base::ReadWholeFile(path, &bytes, exists));
  std::string& text = *complete_text;
  text.assign(bytes.begin(), bytes.end());
  // A torn last line is the run that was being written when we died (or is
  // being written now, for a reader): leave it out.
  const std::size_t complete = text.rfind('\n') == std::string::npos ? 0 : text.rfind('\n') + 1;
  *torn = complete != text.size();
  text.resize(complete);

  std::size_t pos = 0, line_number = 0;
  while (pos < text.size()) {
    const std::size_t end = text.find('\n', pos);
    const std::string line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_number;
    CsvRow row = SplitCsvLine(line);
    if (line_number == 1) {
      if (row != columns) {
        return Status::InvalidArgument(path + ": its header is '" + line + "', expected '" + JoinCsv(columns) +
                                       "' (results of another experiment? use another --out)");
      }
      continue;
    }
    if (row.size() != columns.size()) {
      return Status::InvalidArgument(path + ":" + std::to_string(line_number) + ": " +
                                     std::to_string(row.size()) + " fields, expected " +
                                     std::to_string(columns.size()));
    }
    t->keys_[t->KeyOfRow(row)] = t->rows_.size();
    t->rows_.push_back(std::move(row));
  }
  return t;
}

Result<std::unique_ptr<ResultsTable>> ResultsTable::OpenReadOnly(const std::string& path, const CsvRow& columns,
                                                                 std::vector<std::size_t> key_columns) {
  bool exists = false, torn = false;
  std::string text;
  Result<std::unique_ptr<ResultsTable>> t = Load(path, columns, std::move(key_columns), &exists, &torn, &text);
  if (t.ok() && !exists) return Status::InvalidArgument("no results at " + path);
  return t;
}

Result<std::unique_ptr<ResultsTable>> ResultsTable::Open(const std::string& path, const CsvRow& columns,
                                                         std::vector<std::size_t> key_columns) {
  bool exists = false, torn = false;
  std::string text;
  Result<std::unique_ptr<ResultsTable>> loaded = Load(path, columns, std::move(key_columns), &exists, &torn, &text);
  if (!loaded.ok()) return loaded.status();
  std::unique_ptr<ResultsTable> t = std::move(loaded).value();
  if (!exists || torn) {
    if (!exists) text = JoinCsv(columns) + "\n";
    LDPGRAPH_RETURN_IF_ERROR(base::WriteFileDurably(path, std::vector<std::uint8_t>(text.begin(), text.end())));
  }
  t->fd_ = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (t->fd_ < 0) return IoError("cannot open", path);
  return t;
}

ResultsTable::~ResultsTable() {
  if (fd_ >= 0) ::close(fd_);
}

namespace {

std::string JoinKey(const CsvRow& values) {
  std::string key;
  for (const std::string& v : values) key += v + '\x1f';
  return key;
}

}  // namespace

std::string ResultsTable::KeyOfRow(const CsvRow& row) const {
  CsvRow key;
  for (std::size_t i : key_columns_) key.push_back(row[i]);
  return JoinKey(key);
}

bool ResultsTable::Has(const CsvRow& key) const {
  std::lock_guard<std::mutex> lock(mu_);
  return keys_.count(JoinKey(key)) > 0;
}

std::optional<CsvRow> ResultsTable::Find(const CsvRow& key) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = keys_.find(JoinKey(key));
  if (it == keys_.end()) return std::nullopt;
  return rows_[it->second];
}

Status ResultsTable::Append(const CsvRow& row) {
  if (row.size() != columns_.size()) {
    return Status::InvalidArgument("a row of " + std::to_string(row.size()) + " fields for a table of " +
                                   std::to_string(columns_.size()));
  }
  for (const std::string& field : row) {
    if (field.find_first_of(",\"\r\n") != std::string::npos) {
      return Status::InvalidArgument("the field '" + field + "' holds a comma, quote or line break");
    }
  }
  if (fd_ < 0) return Status::FailedPrecondition(path_ + " was opened read-only");
  const std::string line = JoinCsv(row) + "\n";
  std::lock_guard<std::mutex> lock(mu_);
  // One write() of one line on an O_APPEND file, then fsync: the row is whole
  // on disk or (after a crash mid-write) cut off at the next Open().
  const ssize_t written = ::write(fd_, line.data(), line.size());
  if (written != static_cast<ssize_t>(line.size())) return IoError("cannot append to", path_);
  if (::fsync(fd_) != 0) return IoError("cannot fsync", path_);
  keys_[KeyOfRow(row)] = rows_.size();
  rows_.push_back(row);
  return Status::Ok();
}

std::vector<CsvRow> ResultsTable::Rows() const {
  std::lock_guard<std::mutex> lock(mu_);
  return rows_;
}

}  // namespace ldpgraph
