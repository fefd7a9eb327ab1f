// RoundClock: closes the rounds of graphs whose schedule says "every N
// hours" (round_schedule.h), through CloseRound as an admin would. Each
// daemon sharing a store runs one: the store's OpenRound lets exactly one of
// them close a round, and only that one queues its retraining. A round is
// due once `every_hours` have passed since it opened; a daemon that was down
// closes an overdue round once when it starts (one round, not one per
// missed period: the rounds that were missed collected nothing).
#ifndef LDPGRAPH_DAEMON_API_ROUND_CLOCK_H_
#define LDPGRAPH_DAEMON_API_ROUND_CLOCK_H_

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "api/service_context.h"

namespace ldpgraph {

class RoundClock {
 public:
  // Looks every `tick` (a round lasts a second at least).
  explicit RoundClock(ServiceContext* ctx, std::chrono::milliseconds tick = std::chrono::milliseconds(250));
  ~RoundClock();  // stops and joins
  RoundClock(const RoundClock&) = delete;
  RoundClock& operator=(const RoundClock&) = delete;

  // Closes every timed round that is due now; what the thread does each tick.
  void CloseDueRounds();

 private:
  void Loop();

  ServiceContext* ctx_;
  std::chrono::milliseconds tick_;
  // When the registry last asked the store for graphs other daemons created
  // (every kRefresh; between, the clock reads the store only for a graph
  // whose rounds are timed).
  std::chrono::steady_clock::time_point refreshed_{};
  static constexpr std::chrono::seconds kRefresh{10};
  std::mutex mu_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_API_ROUND_CLOCK_H_
