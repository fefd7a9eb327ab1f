// RateLimiter: one token bucket per key (a user token, a client address).
// A request takes one token; an empty bucket answers how long until the next
// token, which the daemon sends as Retry-After. Idle full buckets are
// forgotten so the map stays bounded by the active keys.
#ifndef LDPGRAPH_DAEMON_NET_RATE_LIMITER_H_
#define LDPGRAPH_DAEMON_NET_RATE_LIMITER_H_

#include <chrono>
#include <mutex>
#include <string>
#include <unordered_map>

namespace ldpgraph {

struct RateLimit {
  double per_second = 0;  // 0: unlimited
  double burst = 0;
};

class RateLimiter {
 public:
  using Clock = std::chrono::steady_clock;

  explicit RateLimiter(RateLimit limit) : limit_(limit) {}

  // 0 when admitted; otherwise the whole seconds (>= 1) to wait.
  unsigned Admit(const std::string& key, Clock::time_point now = Clock::now());
  bool unlimited() const { return limit_.per_second <= 0; }

 private:
  struct Bucket {
    double tokens;
    Clock::time_point updated;
  };
  void Sweep(Clock::time_point now);

  RateLimit limit_;
  std::mutex mu_;
  std::unordered_map<std::string, Bucket> buckets_;
  std::size_t sweep_at_ = 4096;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_NET_RATE_LIMITER_H_
