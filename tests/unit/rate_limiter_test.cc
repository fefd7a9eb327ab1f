// Token buckets: a burst, then one request per 1/rate seconds, Retry-After
// rounded up; keys are independent; unlimited admits everything.
#include <doctest/doctest.h>

#include "net/rate_limiter.h"

using ldpgraph::RateLimiter;

TEST_CASE("RateLimiter.AdmitsABurstThenTheRate") {
  RateLimiter limiter({2.0, 3.0});  // 2 per second, burst 3
  const auto t0 = RateLimiter::Clock::now();
  for (int i = 0; i < 3; ++i) CHECK(limiter.Admit("a", t0) == 0);
  CHECK(limiter.Admit("a", t0) == 1);  // the next token in 0.5 s, rounded up
  CHECK(limiter.Admit("b", t0) == 0);  // another key has its own bucket
  CHECK(limiter.Admit("a", t0 + std::chrono::milliseconds(499)) == 1);
  CHECK(limiter.Admit("a", t0 + std::chrono::milliseconds(510)) == 0);
  CHECK(limiter.Admit("a", t0 + std::chrono::milliseconds(520)) == 1);
  // Refills to the burst, not beyond.
  const auto later = t0 + std::chrono::seconds(100);
  for (int i = 0; i < 3; ++i) CHECK(limiter.Admit("a", later) == 0);
  CHECK(limiter.Admit("a", later) != 0);
}

TEST_CASE("RateLimiter.SlowRatesAskForLongerWaits") {
  RateLimiter limiter({0.1, 1.0});
  const auto t0 = RateLimiter::Clock::now();
  CHECK(limiter.Admit("k", t0) == 0);
  CHECK(limiter.Admit("k", t0) == 10);
}

TEST_CASE("RateLimiter.UnlimitedAndManyKeys") {
  RateLimiter unlimited({0, 0});
  for (int i = 0; i < 1000; ++i) CHECK(unlimited.Admit("x") == 0);
  RateLimiter limiter({1000.0, 1.0});
  const auto t0 = RateLimiter::Clock::now();
  // More keys than the sweep threshold: old full buckets are forgotten, active ones kept.
  for (int i = 0; i < 20000; ++i) CHECK(limiter.Admit("key" + std::to_string(i), t0 + std::chrono::seconds(i)) == 0);
  // The latest key's bucket survived the sweeps: its only token is spent.
  CHECK(limiter.Admit("key19999", t0 + std::chrono::seconds(19999)) == 1);
}
