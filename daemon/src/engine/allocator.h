// Training allocates and frees the same large temporaries every batch. By
// default glibc serves blocks over 128 KiB with fresh mmap()s and returns
// them on free(), so each batch pays page faults and zeroing for megabytes
// of memory. Keeping freed memory in the heap removes that cost.
#ifndef LDPGRAPH_DAEMON_ENGINE_ALLOCATOR_H_
#define LDPGRAPH_DAEMON_ENGINE_ALLOCATOR_H_

namespace ldpgraph {

// Idempotent; call before a training loop.
void KeepTrainingMemoryInHeap();

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_ENGINE_ALLOCATOR_H_
