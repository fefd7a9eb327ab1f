// How many reports each graph got in the last hour, for the console: per
// graph, 60 one-minute buckets of what this daemon stored. Kept in memory
// (a restart starts it again at 0); several daemons on one database each
// count their own.
#ifndef LDPGRAPH_DAEMON_API_REPORT_RATE_H_
#define LDPGRAPH_DAEMON_API_REPORT_RATE_H_

#include <array>
#include <cstdint>
#include <mutex>
#include <unordered_map>

namespace ldpgraph {

class ReportRate {
 public:
  // `minute`: minutes since the epoch (the clock, or a test's).
  void Count(std::uint64_t graph_id, std::int64_t minute);
  // Reports counted for `graph_id` in the 60 minutes up to `minute`.
  std::uint64_t LastHour(std::uint64_t graph_id, std::int64_t minute) const;
  // The current minute by the system clock.
  static std::int64_t Now();

 private:
  struct Buckets {
    std::array<std::int64_t, 60> minute{};  // which minute each bucket holds
    std::array<std::uint64_t, 60> count{};
  };
  mutable std::mutex mu_;  // stored reports come from the store's one commit thread: barely contended
  std::unordered_map<std::uint64_t, Buckets> graphs_;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_API_REPORT_RATE_H_
