// How a training tunes the process's malloc, one implementation per malloc
// the product runs on (internal to allocator.cc, which picks one and calls it
// under its lock). Each keeps a training's freed memory in the process while
// it runs, hands it back when it ends, and once the memory it holds passes
// 1 GiB backs it with 2 MiB pages (huge_pages.h).
#ifndef LDPGRAPH_DAEMON_ENGINE_MALLOC_TUNING_H_
#define LDPGRAPH_DAEMON_ENGINE_MALLOC_TUNING_H_

namespace ldpgraph {

struct MallocTuning {
  void (*start_training)();
  void (*end_training)();  // the last training has ended
  void (*epoch_ended)();
};

// glibc's malloc: the tests' and the sanitizer builds' (ASan replaces it, and
// these settings then do nothing).
const MallocTuning& GlibcMallocTuning();

// jemalloc, the malloc of ldpgraph and ldpgraphd (LDPGRAPH_JEMALLOC).
bool JemallocServesMalloc();
const MallocTuning& JemallocTuning();  // requires JemallocServesMalloc()

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_ENGINE_MALLOC_TUNING_H_
