#include "engine/allocator.h"

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

namespace ldpgraph {
namespace {

std::mutex scopes_mu;
int open_scopes = 0;  // guarded by scopes_mu

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
  BackHeapWithHugePages();
}

TrainingMemoryScope::TrainingMemoryScope() {
  std::lock_guard<std::mutex> lock(scopes_mu);
  if (open_scopes++ == 0) SetTraining();
}

TrainingMemoryScope::~TrainingMemoryScope() {
  std::lock_guard<std::mutex> lock(scopes_mu);
  if (--open_scopes > 0) return;
  SetIdle();
#if defined(__GLIBC__) && defined(__linux__)
  huge_heap_bytes = 0;
#endif
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

}  // namespace ldpgraph
