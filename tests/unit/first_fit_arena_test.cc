// The bare-metal build's allocator (sdk/src/internal/first_fit_arena.h),
// run on every ISA: no two live blocks overlap through a long random run of
// allocations, frees and resizes; resizes keep their bytes; freed space is
// found again; the high water mark is the highest block ever used.
#include <doctest/doctest.h>

#include <cstring>
#include <vector>

#include "internal/first_fit_arena.h"
#include "ldpgraph/random_source.h"
#include "ldpgraph/samplers.h"

using ldpgraph::internal::FirstFitArena;

namespace {
struct Live {
  unsigned char* p;
  std::size_t n;
  unsigned char tag;
};

bool Intact(const Live& b) {
  for (std::size_t k = 0; k < b.n; ++k) {
    if (b.p[k] != b.tag) return false;
  }
  return true;
}
}  // namespace

TEST_CASE("FirstFitArena.LiveBlocksNeverOverlapAndResizesKeepTheirBytes") {
  alignas(8) static unsigned char buffer[256 * 1024];
  FirstFitArena arena;
  REQUIRE(arena.Install(buffer + 3, sizeof buffer - 3));  // any alignment
  ldpgraph::SeededRandomSource rng(5);
  std::vector<Live> live;
  std::size_t failed = 0;
  for (int step = 0; step < 50000; ++step) {
    const std::uint64_t op = ldpgraph::UniformBelow(rng, 3);
    if (op == 0 || live.empty()) {
      const std::size_t n = ldpgraph::UniformBelow(rng, 3000);
      auto* p = static_cast<unsigned char*>(arena.Allocate(n));
      if (p == nullptr) {
        ++failed;
        continue;
      }
      CHECK(reinterpret_cast<std::uintptr_t>(p) % 8 == 0);
      const auto tag = static_cast<unsigned char>(step);
      std::memset(p, tag, n);
      live.push_back({p, n, tag});
    } else if (op == 1) {
      const std::size_t i = ldpgraph::UniformBelow(rng, live.size());
      REQUIRE(Intact(live[i]));
      arena.Release(live[i].p);
      live.erase(live.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      const std::size_t i = ldpgraph::UniformBelow(rng, live.size());
      REQUIRE(Intact(live[i]));
      const std::size_t n = 1 + ldpgraph::UniformBelow(rng, 5000);
      auto* p = static_cast<unsigned char*>(arena.Resize(live[i].p, n));
      if (p == nullptr) {  // the old block stays as it was
        ++failed;
        REQUIRE(Intact(live[i]));
        continue;
      }
      live[i].p = p;
      live[i].n = std::min(live[i].n, n);
      REQUIRE(Intact(live[i]));
      std::memset(p, live[i].tag, n);
      live[i].n = n;
    }
  }
  for (const Live& b : live) REQUIRE(Intact(b));
  CHECK(failed < 5000);  // full at times, but freed space is found again
  for (const Live& b : live) arena.Release(b.p);
  CHECK(arena.in_use() == 0);
  // Everything free again: one block of almost the whole buffer fits.
  void* all = arena.Allocate(sizeof buffer - 64);
  CHECK(all != nullptr);
  arena.Release(all);
}

TEST_CASE("FirstFitArena.TheHighWaterMarkIsTheHighestBlockEverUsed") {
  alignas(8) static unsigned char buffer[4096];
  FirstFitArena arena;
  REQUIRE(arena.Install(buffer, sizeof buffer));
  void* a = arena.Allocate(100);  // 8 + 104
  void* b = arena.Allocate(200);  // 8 + 200
  CHECK(arena.high_water() == 320);
  CHECK(arena.in_use() == 320);
  arena.Release(b);
  CHECK(arena.high_water() == 320);
  arena.ResetHighWater();
  CHECK(arena.high_water() == 112);
  void* c = arena.Allocate(50);  // the space b left: first fit
  CHECK(c == b);
  CHECK(arena.high_water() == 112 + 64);
  CHECK(arena.Allocate(5000) == nullptr);
  CHECK(arena.Allocate(SIZE_MAX) == nullptr);
  arena.Release(a);
  arena.Release(c);
  CHECK(arena.in_use() == 0);
}

TEST_CASE("FirstFitArena.RefusesABufferItCannotUse") {
  FirstFitArena arena;
  CHECK(arena.Allocate(8) == nullptr);  // nothing installed
  unsigned char small[32];
  CHECK_FALSE(arena.Install(small, sizeof small));
  CHECK_FALSE(arena.Install(nullptr, 4096));
}
