// Transparent huge pages for the memory a training's malloc holds. A GNN's
// neighbour sum reads the rows of a (users x 64) matrix in random order; at
// 10^6 users that matrix is 256 MB, and with 4 KiB pages nearly every row
// costs a TLB miss and a page walk on top of its cache misses, where 2 MiB
// pages cover it with a few hundred TLB entries (a standalone gather at 10^6
// rows: 45 -> 30 ns an edge). Most distributions leave huge pages to
// madvise(), so after an epoch, once the memory has reached its working
// size, its mappings are marked and its free pages (the epoch's temporaries,
// freed) dropped: the next epoch faults them in again as 2 MiB pages, one
// pass of page clearing, where collapsing the resident pages in place
// (MADV_COLLAPSE) copies them at ~0.4 GB/s.
#ifndef LDPGRAPH_DAEMON_ENGINE_HUGE_PAGES_H_
#define LDPGRAPH_DAEMON_ENGINE_HUGE_PAGES_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ldpgraph {

constexpr std::uintptr_t kHugePage = std::uintptr_t{2} << 20;

struct AddressRange {
  std::uintptr_t begin = 0, end = 0;
  std::uintptr_t size() const { return end - begin; }
};

// From /proc/self/maps: the brk heap's mappings (glibc's main arena; several
// once madvise has split it), or the private anonymous unnamed ones of at
// least `min_bytes` (jemalloc's extents; thread stacks are smaller).
std::vector<AddressRange> HeapMappings();
std::vector<AddressRange> AnonymousMappings(std::uintptr_t min_bytes);

// Marks the 2 MiB-aligned part of each range MADV_HUGEPAGE once they hold
// 1 GiB in all (below that they fit the TLB's reach with ordinary pages),
// and again whenever they have grown by a quarter since `*marked_bytes`,
// their size when last marked (updated; 0: never). Returns whether it
// marked them: the caller then drops their free pages. A failure (THP off,
// a kernel without it) leaves ordinary pages: slower, not wrong.
bool AdviseHugePagesOnGrowth(const std::vector<AddressRange>& ranges, std::uintptr_t* marked_bytes);

// Drops the whole pages inside [begin, end): the next touch faults in fresh
// (zeroed) memory.
void DropPages(std::uintptr_t begin, std::uintptr_t end);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_ENGINE_HUGE_PAGES_H_
