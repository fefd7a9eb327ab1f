// TrainingMemoryScope on jemalloc, the malloc of ldpgraph and ldpgraphd
// (LDPGRAPH_JEMALLOC): while a training runs, no arena hands freed pages back
// (a batch reuses them without faults); when the last scope ends, the
// start-up decay times return and what training freed is purged at once.
// Linked with jemalloc like the executables; not built under the sanitizers,
// and left out of the valgrind tier, whose memcheck does not know jemalloc.
#include "engine/allocator.h"

#include <doctest/doctest.h>
#include <jemalloc/jemalloc.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <thread>

using namespace ldpgraph;

namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;

std::int64_t DecayMs(const std::string& name) {
  std::int64_t value = 0;
  std::size_t length = sizeof value;
  REQUIRE(mallctl(name.c_str(), &value, &length, nullptr, 0) == 0);
  return value;
}

unsigned ThisThreadsArena() {
  unsigned arena = 0;
  std::size_t length = sizeof arena;
  REQUIRE(mallctl("thread.arena", &arena, &length, nullptr, 0) == 0);
  return arena;
}

// Bytes of freed, not yet returned pages over all arenas (fresh statistics).
std::size_t DirtyBytes() {
  std::uint64_t epoch = 1;
  std::size_t epoch_length = sizeof epoch;
  REQUIRE(mallctl("epoch", &epoch, &epoch_length, &epoch, epoch_length) == 0);
  std::size_t pages = 0, length = sizeof pages;
  REQUIRE(mallctl("stats.arenas.4096.pdirty", &pages, &length, nullptr, 0) == 0);  // 4096: all arenas
  return pages * 4096;
}

// A training batch's temporary: written through, then freed.
void UseAndFree(std::size_t bytes) {
  void* block = std::malloc(bytes);
  REQUIRE(block != nullptr);
  std::memset(block, 1, bytes);
  std::free(block);
}

}  // namespace

TEST_CASE("jemalloc serves this binary's malloc") {
  const char* version = nullptr;
  std::size_t length = sizeof version;
  REQUIRE(mallctl("version", &version, &length, nullptr, 0) == 0);
  CHECK(std::string(version).substr(0, 2) == "5.");
}

TEST_CASE("a training scope stops decay and the last scope's end purges what training freed") {
  const std::int64_t startup_dirty = DecayMs("opt.dirty_decay_ms");
  const std::int64_t startup_muzzy = DecayMs("opt.muzzy_decay_ms");
  REQUIRE(startup_dirty > 0);  // jemalloc's default (10 s): the daemon's idle setting
  const std::string arena = "arena." + std::to_string(ThisThreadsArena());
  CHECK(DecayMs(arena + ".dirty_decay_ms") == startup_dirty);

  std::optional<TrainingMemoryScope> outer(std::in_place);
  CHECK(DecayMs(arena + ".dirty_decay_ms") == -1);
  CHECK(DecayMs(arena + ".muzzy_decay_ms") == -1);
  CHECK(DecayMs("arenas.dirty_decay_ms") == -1);  // arenas made during training too
  UseAndFree(64 * kMiB);
  CHECK(DirtyBytes() >= 64 * kMiB);  // kept for the next batch

  {
    TrainingMemoryScope inner;  // another training, ending first
  }
  CHECK(DecayMs(arena + ".dirty_decay_ms") == -1);
  CHECK(DirtyBytes() >= 64 * kMiB);

  outer.reset();
  CHECK(DecayMs(arena + ".dirty_decay_ms") == startup_dirty);
  CHECK(DecayMs(arena + ".muzzy_decay_ms") == startup_muzzy);
  CHECK(DecayMs("arenas.dirty_decay_ms") == startup_dirty);
  CHECK(DirtyBytes() < 4 * kMiB);  // handed back at once, not over the next 10 s
}

TEST_CASE("an arena first used during training keeps its pages too") {
  TrainingMemoryScope scope;
  std::size_t dirty_after = 0;
  std::thread worker([&] {
    // A fresh thread may be given an arena no thread had used before.
    UseAndFree(32 * kMiB);
    dirty_after = DirtyBytes();
  });
  worker.join();
  CHECK(dirty_after >= 32 * kMiB);
}
