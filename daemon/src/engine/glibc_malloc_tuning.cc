// TrainingMemoryScope on glibc's malloc.
#include <cstddef>
#include <cstdint>
#include <cstdlib>  // defines __GLIBC__ on glibc systems; test it only after a libc header
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "engine/huge_pages.h"
#include "engine/malloc_tuning.h"

namespace ldpgraph {
namespace {

#if defined(__GLIBC__)
std::uintptr_t huge_heap_bytes = 0;  // the heap's size when last marked; under allocator.cc's lock

// During training: every block from the heap, whatever its size, and the
// heap never trimmed. By default glibc serves blocks over 128 KiB with fresh
// mmap()s and returns them on free(), so each batch paid page faults and
// zeroing for every megabyte it used again: GIN on ten Barabasi-Albert graphs
// of 10^5 users (study 05) spent 45% of its time zeroing new pages; 10.5 s ->
// 2.6 s per epoch (9.4 GB peak either way).
void StartTraining() {
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, -1);  // -1: never trim
}

// Afterwards: blocks up to 32 MiB (the largest threshold glibc takes) from
// the heap, which grows and shrinks in 256 MiB steps. Measured on
// REDDIT-BINARY (bench gin, 1 thread): minor faults 1.36M -> 0.14M per
// epoch, 4.8 s -> 3.1 s, same peak RSS.
void EndTraining() {
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_MMAP_MAX, 65536);  // glibc's default
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
  mallopt(M_TOP_PAD, 256 << 20);
  huge_heap_bytes = 0;
  malloc_trim(0);
}

// glibc asks for huge pages only when told at start-up (GLIBC_TUNABLES), so
// the heap is marked once it passes 1 GiB (and again when it has grown by a
// quarter). Training never trims the heap, so the pages stay huge until the
// last training ends.
void EpochEnded() {
  if (!AdviseHugePagesOnGrowth(HeapMappings(), &huge_heap_bytes)) return;
  // Free chunks inside the heap: glibc drops their pages (and, with the top
  // pad, keeps the top of the heap mapped). The free top it leaves alone, so
  // it is taken as one block, its pages dropped and the block given back.
  malloc_trim(static_cast<std::size_t>(huge_heap_bytes));  // the heap's size, just marked
  const std::size_t top = mallinfo2().keepcost;
  if (top <= 2 * kHugePage) return;
  void* block = std::malloc(top - kHugePage);
  if (block == nullptr) return;
  const auto at = reinterpret_cast<std::uintptr_t>(block);
  DropPages(at, at + top - kHugePage);
  std::free(block);
}
#else
void StartTraining() {}
void EndTraining() {}
void EpochEnded() {}
#endif

}  // namespace

const MallocTuning& GlibcMallocTuning() {
  static const MallocTuning tuning{StartTraining, EndTraining, EpochEnded};
  return tuning;
}

}  // namespace ldpgraph
