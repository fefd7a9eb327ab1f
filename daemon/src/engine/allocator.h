// Training allocates and frees the same large temporaries every batch. Left
// to its defaults, malloc hands freed memory back to the kernel (glibc at
// once for blocks over 128 KiB, jemalloc over 10 s), so each batch pays page
// faults and zeroing for every megabyte it uses again. While a training
// runs, freed memory stays in the process instead; when the last training
// ends it is handed back. Works on glibc's malloc and on jemalloc, the
// malloc of ldpgraph and ldpgraphd (malloc_tuning.h).
#ifndef LDPGRAPH_DAEMON_ENGINE_ALLOCATOR_H_
#define LDPGRAPH_DAEMON_ENGINE_ALLOCATOR_H_

namespace ldpgraph {

// Hold one for the length of a training loop. Scopes may overlap (the
// experiments train on several threads); the last one to end restores the
// allocator's settings and returns the free memory to the system.
class TrainingMemoryScope {
 public:
  TrainingMemoryScope();
  ~TrainingMemoryScope();
  TrainingMemoryScope(const TrainingMemoryScope&) = delete;
  TrainingMemoryScope& operator=(const TrainingMemoryScope&) = delete;

  // Call between epochs. Once the heap has grown past 1 GiB, backs it with
  // 2 MiB pages (see allocator.cc); a no-op for small trainings, where the
  // heap fits the TLB's reach anyway, and where the kernel cannot.
  void EpochEnded();
};

// Hands the free memory malloc keeps back to the kernel now, unless a
// training runs (benchmarks measuring one stretch's peak call it first).
void ReleaseFreeMemory();

// The malloc this process runs on, for benchmarks' output: "jemalloc",
// "sanitizer" (ASan's), "glibc" or "system".
const char* MallocName();

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_ENGINE_ALLOCATOR_H_
