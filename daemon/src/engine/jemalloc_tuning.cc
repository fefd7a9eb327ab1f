// TrainingMemoryScope on jemalloc.
#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/huge_pages.h"
#include "engine/malloc_tuning.h"

// jemalloc's control interface, present when the executable links jemalloc
// (LDPGRAPH_JEMALLOC: ldpgraph and ldpgraphd); weak, so binaries on glibc's
// malloc (the tests, sanitizer builds) see null.
extern "C" int mallctl(const char* name, void* old_value, std::size_t* old_length, void* new_value,
                       std::size_t new_length) __attribute__((weak));

namespace ldpgraph {
namespace {

constexpr const char* kPurgeAllArenas = "arena.4096.purge";  // 4096: MALLCTL_ARENAS_ALL
// jemalloc's large extents live in mappings it grows geometrically; thread
// stacks (8 MiB) stay below this.
constexpr std::uintptr_t kMinExtentMapping = std::uintptr_t{32} << 20;
std::uintptr_t huge_paged_bytes = 0;  // mapped bytes when last marked; under allocator.cc's lock

// jemalloc hands freed pages back to the kernel over a decay time (10 s by
// default), so a training, whose batches free and reuse the same large
// blocks, would pay page faults and zeroing for part of them again every
// batch (REDDIT-BINARY bench gin: 20% slower than glibc's never-trimmed
// heap). During training nothing decays.
void SetDecay(std::int64_t dirty_ms, std::int64_t muzzy_ms) {  // ssize_t in jemalloc's interface
  unsigned arenas = 0;
  std::size_t length = sizeof arenas;
  if (mallctl("arenas.narenas", &arenas, &length, nullptr, 0) != 0) return;
  for (unsigned i = 0; i < arenas; ++i) {
    // An arena no thread has used yet refuses; arenas.*_decay_ms below covers it.
    const std::string arena = "arena." + std::to_string(i);
    mallctl((arena + ".dirty_decay_ms").c_str(), nullptr, nullptr, &dirty_ms, sizeof dirty_ms);
    mallctl((arena + ".muzzy_decay_ms").c_str(), nullptr, nullptr, &muzzy_ms, sizeof muzzy_ms);
  }
  mallctl("arenas.dirty_decay_ms", nullptr, nullptr, &dirty_ms, sizeof dirty_ms);
  mallctl("arenas.muzzy_decay_ms", nullptr, nullptr, &muzzy_ms, sizeof muzzy_ms);
}

template <typename T>
T Read(const char* name) {
  T value{};
  std::size_t length = sizeof value;
  return mallctl(name, &value, &length, nullptr, 0) == 0 ? value : T{};
}

void StartTraining() { SetDecay(-1, -1); }  // -1: never decay

// The start-up decay times come back, and what training freed is purged at
// once rather than over the next 10 s.
void EndTraining() {
  SetDecay(Read<std::int64_t>("opt.dirty_decay_ms"), Read<std::int64_t>("opt.muzzy_decay_ms"));
  huge_paged_bytes = 0;
  mallctl(kPurgeAllArenas, nullptr, nullptr, nullptr, 0);
}

// jemalloc's extents are anonymous mappings: marked once they hold 1 GiB
// (again when they have grown by a quarter), then every arena's free pages
// are purged so that the next epoch faults them in as 2 MiB pages. Training
// purges nothing else, so the pages stay huge until it ends.
void EpochEnded() {
  if (!AdviseHugePagesOnGrowth(AnonymousMappings(kMinExtentMapping), &huge_paged_bytes)) return;
  mallctl(kPurgeAllArenas, nullptr, nullptr, nullptr, 0);
}

}  // namespace

bool JemallocServesMalloc() { return mallctl != nullptr; }

const MallocTuning& JemallocTuning() {
  static const MallocTuning tuning{StartTraining, EndTraining, EpochEnded};
  return tuning;
}

}  // namespace ldpgraph
