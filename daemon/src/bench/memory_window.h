// MemoryWindow: how much more memory the process held at its peak during a
// stretch of a benchmark than at its start. Opening one hands free memory
// back to the kernel (so that work cannot reuse pages already resident
// unseen) and resets the kernel's high-water mark (/proc/self/clear_refs).
#ifndef LDPGRAPH_DAEMON_BENCH_MEMORY_WINDOW_H_
#define LDPGRAPH_DAEMON_BENCH_MEMORY_WINDOW_H_

namespace ldpgraph {

class MemoryWindow {
 public:
  MemoryWindow();
  // MiB above the start's resident size at the peak since; -1 when the
  // kernel cannot reset the high-water mark (then it would mean nothing).
  double PeakMb() const;

 private:
  double start_mb_ = 0;
  bool reset_ = false;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_BENCH_MEMORY_WINDOW_H_
