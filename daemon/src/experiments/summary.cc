#include "experiments/summary.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "base/durable_file.h"

namespace ldpgraph {
namespace {

Result<std::vector<std::size_t>> IndicesOf(const CsvRow& columns, const std::vector<std::string>& names) {
  std::vector<std::size_t> out;
  for (const std::string& name : names) {
    auto it = std::find(columns.begin(), columns.end(), name);
    if (it == columns.end()) return Status::InvalidArgument("no column '" + name + "' in the results");
    out.push_back(static_cast<std::size_t>(it - columns.begin()));
  }
  return out;
}

}  // namespace

Result<std::vector<SummaryRow>> Summarise(const CsvRow& columns, const std::vector<CsvRow>& rows,
                                          const std::vector<std::string>& group,
                                          const std::vector<std::string>& metrics) {
  Result<std::vector<std::size_t>> g = IndicesOf(columns, group);
  if (!g.ok()) return g.status();
  Result<std::vector<std::size_t>> m = IndicesOf(columns, metrics);
  if (!m.ok()) return m.status();

  std::vector<CsvRow> order;
  std::map<CsvRow, std::vector<std::vector<double>>> values;  // setting -> metric -> values
  for (const CsvRow& row : rows) {
    CsvRow setting;
    for (std::size_t i : *g) setting.push_back(row[i]);
    auto [it, fresh] = values.emplace(setting, std::vector<std::vector<double>>(m->size()));
    if (fresh) order.push_back(setting);
    for (std::size_t k = 0; k < m->size(); ++k) it->second[k].push_back(ParseNumber(row[(*m)[k]]));
  }
  // Settings in a reading order: field by field, numbers as numbers.
  std::stable_sort(order.begin(), order.end(), [](const CsvRow& a, const CsvRow& b) {
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (a[i] == b[i]) continue;
      const double x = ParseNumber(a[i]), y = ParseNumber(b[i]);
      if (!std::isnan(x) && !std::isnan(y)) return x < y;
      return a[i] < b[i];
    }
    return false;
  });
  std::vector<SummaryRow> out;
  for (const CsvRow& setting : order) {
    const auto& per_metric = values[setting];
    SummaryRow s;
    s.setting = setting;
    s.runs = per_metric.empty() ? 0 : per_metric[0].size();
    for (const std::vector<double>& v : per_metric) {
      double sum = 0;
      for (double x : v) sum += x;
      const double mean = sum / static_cast<double>(v.size());
      double sq = 0;
      // One rounding per step on every machine: a build for a CPU with FMA
      // lets the compiler fuse `sq += d * d` where the CPU has FMA, and the
      // committed summaries then changed in the last digit from one build
      // machine to the next.
      for (double x : v) sq = std::fma(x - mean, x - mean, sq);
      s.mean.push_back(mean);
      s.stddev.push_back(v.size() > 1 ? std::sqrt(sq / static_cast<double>(v.size() - 1)) : 0.0);
    }
    out.push_back(std::move(s));
  }
  return out;
}

Status WriteSummary(const std::string& path, const std::vector<std::string>& group,
                    const std::vector<std::string>& metrics, const std::vector<SummaryRow>& summary) {
  std::string text;
  for (const std::string& c : group) text += c + ",";
  text += "runs";
  for (const std::string& c : metrics) text += "," + c + "_mean," + c + "_std";
  text += "\n";
  for (const SummaryRow& s : summary) {
    for (const std::string& v : s.setting) text += v + ",";
    text += std::to_string(s.runs);
    for (std::size_t k = 0; k < s.mean.size(); ++k) {
      text += "," + FormatNumber(s.mean[k]) + "," + FormatNumber(s.stddev[k]);
    }
    text += "\n";
  }
  return base::WriteFileDurably(path, std::vector<std::uint8_t>(text.begin(), text.end()));
}

}  // namespace ldpgraph
