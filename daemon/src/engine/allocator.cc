#include "engine/allocator.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>  // defines __GLIBC__ on glibc systems; test it only after a libc header
#include <fstream>
#include <mutex>
#include <string>
#include <vector>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#if defined(__linux__)
#include <sys/mman.h>
#endif

// jemalloc's control interface, present when the executable links jemalloc
// (LDPGRAPH_JEMALLOC: ldpgraph and ldpgraphd); weak, so binaries on glibc's
// malloc (the tests, sanitizer builds) see null and take glibc's path.
extern "C" int mallctl(const char* name, void* old_value, std::size_t* old_length, void* new_value,
                       std::size_t new_length) __attribute__((weak));

namespace ldpgraph {
namespace {

std::mutex scopes_mu;
int open_scopes = 0;  // guarded by scopes_mu

bool UsingJemalloc() { return mallctl != nullptr; }

// jemalloc hands freed pages back to the kernel over a decay time (10 s by
// default), so a training, whose batches free and reuse the same large
// blocks, pays page faults and zeroing for part of them again every batch
// (REDDIT-BINARY bench gin: 20% slower than glibc's never-trimmed heap).
// During training nothing decays; afterwards the start-up decay times come
// back and what training freed is purged at once.
void SetJemallocDecay(std::int64_t dirty_ms, std::int64_t muzzy_ms) {
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

std::int64_t JemallocOption(const char* name) {
  std::int64_t value = 0;  // ssize_t in jemalloc's interface
  std::size_t length = sizeof value;
  return mallctl(name, &value, &length, nullptr, 0) == 0 ? value : 0;
}

void SetJemallocTraining() { SetJemallocDecay(-1, -1); }  // -1: never decay

void SetJemallocIdle() {
  SetJemallocDecay(JemallocOption("opt.dirty_decay_ms"), JemallocOption("opt.muzzy_decay_ms"));
  mallctl("arena.4096.purge", nullptr, nullptr, nullptr, 0);  // 4096: MALLCTL_ARENAS_ALL
}

#if defined(__GLIBC__)
// Outside training: blocks up to 32 MiB (the largest threshold glibc takes)
// from the heap, which grows and shrinks in 256 MiB steps. Measured on
// REDDIT-BINARY (bench gin, 1 thread): minor faults 1.36M -> 0.14M per
// epoch, 4.8 s -> 3.1 s, same peak RSS.
void SetIdle() {
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_MMAP_MAX, 65536);  // glibc's default
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
  mallopt(M_TOP_PAD, 256 << 20);
}

// During training: every block from the heap, whatever its size, and the
// heap never trimmed. Graphs of 10^5 users make tensors of over 32 MiB,
// which the idle settings still map afresh every batch: GIN on ten
// Barabasi-Albert graphs of 10^5 users (study 05) spent 45% of its time
// zeroing new pages; 10.5 s -> 2.6 s per epoch (9.4 GB peak either way).
void SetTraining() {
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, -1);  // -1: never trim
}
#else
void SetIdle() {}
void SetTraining() {}
#endif

#if defined(__GLIBC__) && defined(__linux__)
constexpr std::uintptr_t kHugePage = std::uintptr_t{2} << 20;
constexpr std::uintptr_t kMinHugeHeap = std::uintptr_t{1} << 30;
constexpr std::uintptr_t kPage = 4096;
std::uintptr_t huge_heap_bytes = 0;  // guarded by scopes_mu: the heap's size when last marked

struct Range {
  std::uintptr_t begin, end;
};

// The heap's mappings (several once madvise has split it), from /proc.
std::vector<Range> HeapRanges() {
  std::vector<Range> heap;
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    if (line.find("[heap]") == std::string::npos) continue;
    const auto dash = line.find('-'), space = line.find(' ');
    if (dash == std::string::npos || space == std::string::npos || space < dash) continue;
    heap.push_back({static_cast<std::uintptr_t>(std::stoull(line.substr(0, dash), nullptr, 16)),
                    static_cast<std::uintptr_t>(std::stoull(line.substr(dash + 1, space - dash - 1), nullptr, 16))});
  }
  return heap;
}

// A GNN's neighbour sum reads the rows of a (users x 64) matrix in random
// order. At 10^6 users that matrix is 256 MB, and with 4 KiB pages nearly
// every row costs a TLB miss and a page walk on top of its cache misses;
// 2 MiB pages cover it with a few hundred TLB entries (a standalone gather
// at 10^6 rows: 45 -> 30 ns an edge). Most distributions leave transparent
// huge pages to madvise(), and glibc asks for them only when told at start-up
// (GLIBC_TUNABLES), so after the first epoch, when the heap has reached its
// working size, the heap is marked for huge pages and its free memory (the
// epoch's temporaries, freed) handed back, so that the next epoch faults it
// in again as 2 MiB pages: one pass of page clearing, where collapsing the
// resident pages in place (MADV_COLLAPSE) copies them at ~0.4 GB/s. Training
// never trims the heap, so the pages stay huge until the last scope ends.
void BackHeapWithHugePages() {
  const std::vector<Range> heap = HeapRanges();
  std::uintptr_t total = 0;
  for (const Range& r : heap) total += r.end - r.begin;
  if (total < kMinHugeHeap || total < huge_heap_bytes + huge_heap_bytes / 4) return;
  huge_heap_bytes = total;
  for (const Range& r : heap) {
    const std::uintptr_t begin = (r.begin + kHugePage - 1) & ~(kHugePage - 1), end = r.end & ~(kHugePage - 1);
    // A failure (THP off, a kernel without it) leaves ordinary pages: slower, not wrong.
    if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
  }
  // Free chunks inside the heap: glibc drops their pages (and, with this
  // pad, keeps the top of the heap mapped). The free top it leaves alone, so
  // it is taken as one block, its pages dropped and the block given back.
  malloc_trim(static_cast<std::size_t>(total));
  const std::size_t top = mallinfo2().keepcost;
  if (top <= 2 * kHugePage) return;
  void* block = std::malloc(top - kHugePage);
  if (block == nullptr) return;
  const auto at = reinterpret_cast<std::uintptr_t>(block);
  const std::uintptr_t begin = (at + kPage - 1) & ~(kPage - 1), end = (at + top - kHugePage) & ~(kPage - 1);
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
  std::free(block);
}
#else
void BackHeapWithHugePages() {}
#endif

}  // namespace

void TrainingMemoryScope::EpochEnded() {
  std::lock_guard<std::mutex> lock(scopes_mu);
  if (UsingJemalloc()) return;  // its extents are not the [heap] this marks
  BackHeapWithHugePages();
}

TrainingMemoryScope::TrainingMemoryScope() {
  std::lock_guard<std::mutex> lock(scopes_mu);
  if (open_scopes++ > 0) return;
  if (UsingJemalloc()) {
    SetJemallocTraining();
  } else {
    SetTraining();
  }
}

TrainingMemoryScope::~TrainingMemoryScope() {
  std::lock_guard<std::mutex> lock(scopes_mu);
  if (--open_scopes > 0) return;
  if (UsingJemalloc()) {
    SetJemallocIdle();
    return;
  }
  SetIdle();
#if defined(__GLIBC__) && defined(__linux__)
  huge_heap_bytes = 0;
#endif
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

}  // namespace ldpgraph
