#include "net/rate_limiter.h"

#include <algorithm>
#include <cmath>

namespace ldpgraph {

unsigned RateLimiter::Admit(const std::string& key, Clock::time_point now) {
  if (unlimited()) return 0;
  std::lock_guard<std::mutex> lock(mu_);
  if (buckets_.size() >= sweep_at_) Sweep(now);
  auto [it, inserted] = buckets_.try_emplace(key, Bucket{limit_.burst, now});
  Bucket& b = it->second;
  if (!inserted) {
    const double elapsed = std::chrono::duration<double>(now - b.updated).count();
    b.tokens = std::min(limit_.burst, b.tokens + std::max(0.0, elapsed) * limit_.per_second);
    b.updated = now;
  }
  if (b.tokens >= 1) {
    b.tokens -= 1;
    return 0;
  }
  const double wait = (1 - b.tokens) / limit_.per_second;
  return static_cast<unsigned>(std::max(1.0, std::ceil(wait)));
}

// Drops buckets that have refilled completely: forgetting them changes nothing.
void RateLimiter::Sweep(Clock::time_point now) {
  for (auto it = buckets_.begin(); it != buckets_.end();) {
    const double elapsed = std::chrono::duration<double>(now - it->second.updated).count();
    if (it->second.tokens + elapsed * limit_.per_second >= limit_.burst) {
      it = buckets_.erase(it);
    } else {
      ++it;
    }
  }
  sweep_at_ = std::max<std::size_t>(4096, 2 * buckets_.size());
}

}  // namespace ldpgraph
