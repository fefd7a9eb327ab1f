#include "api/report_rate.h"

#include "util/unix_clock.h"

namespace ldpgraph {

void ReportRate::Count(std::uint64_t graph_id, std::int64_t minute) {
  std::lock_guard<std::mutex> lock(mu_);
  Buckets& b = graphs_[graph_id];
  const std::size_t i = static_cast<std::size_t>(minute % 60);
  if (b.minute[i] != minute) {  // a bucket an hour old (or never used) starts again
    b.minute[i] = minute;
    b.count[i] = 0;
  }
  ++b.count[i];
}

std::uint64_t ReportRate::LastHour(std::uint64_t graph_id, std::int64_t minute) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = graphs_.find(graph_id);
  if (it == graphs_.end()) return 0;
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < 60; ++i) {
    if (it->second.minute[i] > minute - 60 && it->second.minute[i] <= minute) total += it->second.count[i];
  }
  return total;
}

std::int64_t ReportRate::Now() { return UnixSeconds() / 60; }

}  // namespace ldpgraph
