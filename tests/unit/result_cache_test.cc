// ResultCache: each (model version, graph) computed once and kept, bounded
// by bytes and by the memory budget, never by a count of entries.
#include "api/result_cache.h"

#include <doctest/doctest.h>

using ldpgraph::Matrix;
using ldpgraph::MemoryBudget;
using ldpgraph::ResultCache;

namespace {

Matrix Rows(int users) { return Matrix::Constant(users, 4, 0.25f); }

}  // namespace

// Issue 66, defect 6: a graph model over 12 graphs, results requested
// round-robin, reassembled a graph at 35 of 36 requests with 8 entries.
TEST_CASE("ResultCache.KeepsEveryGraphOfAModelOnceComputed") {
  MemoryBudget budget(64 << 20);
  ResultCache cache(8 << 20, &budget);
  int computed = 0;
  for (int request = 0; request < 36; ++request) {
    const std::uint64_t graph = request % 12;
    if (!cache.Find(7, graph)) {
      ++computed;
      cache.Put(7, graph, Rows(1));
    }
  }
  CHECK(computed == 12);
  CHECK(cache.entries() == 12);
}

TEST_CASE("ResultCache.ANewerModelDropsTheOlderResultOfItsGraph") {
  ResultCache cache(1 << 20);
  cache.Put(1, 5, Rows(10));
  cache.Put(1, 6, Rows(10));
  auto newer = cache.Put(2, 5, Rows(10));
  CHECK(newer != nullptr);
  CHECK(cache.Find(1, 5) == nullptr);  // never served again
  CHECK(cache.Find(2, 5) == newer);
  CHECK(cache.Find(1, 6) != nullptr);  // another graph's, untouched
  // An older version arriving late does not displace the newer.
  cache.Put(1, 5, Rows(10));
  CHECK(cache.Find(2, 5) == newer);
}

TEST_CASE("ResultCache.DropsTheLeastRecentlyUsedPastItsBytesAndItsLease") {
  const std::uint64_t one = 1000 * 4 * sizeof(float) + 64;  // a 1,000-user result
  ResultCache cache(3 * one);
  for (std::uint64_t g = 0; g < 3; ++g) cache.Put(1, g, Rows(1000));
  CHECK(cache.Find(1, 0) != nullptr);  // graph 0 used last: graph 1 is the oldest now
  cache.Put(1, 3, Rows(1000));
  CHECK(cache.entries() == 3);
  CHECK(cache.Find(1, 1) == nullptr);
  CHECK(cache.Find(1, 0) != nullptr);
  CHECK(cache.bytes() == 3 * one);
  // Larger than the whole cache: served, not kept.
  CHECK(cache.Put(1, 9, Rows(100000)) != nullptr);
  CHECK(cache.Find(1, 9) == nullptr);

  // The budget: kept results hold leases; when work holds the rest, old results make room or the new one is not kept.
  MemoryBudget budget(2 * one);
  ResultCache leased(100 * one, &budget);
  leased.Put(1, 0, Rows(1000));
  leased.Put(1, 1, Rows(1000));
  CHECK(leased.entries() == 2);
  CHECK(budget.TryReserve(1, "probe").status().code() == ldpgraph::StatusCode::kUnavailable);
  leased.Put(1, 2, Rows(1000));  // drops graph 0's to lease its bytes
  CHECK(leased.entries() == 2);
  CHECK(leased.Find(1, 0) == nullptr);
  {
    auto held = budget.TryReserve(1, "probe");
    CHECK_FALSE(held.ok());
  }
}
