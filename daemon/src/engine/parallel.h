// Row-block parallelism for the engine's kernels. Node-state matrices are
// tall (many nodes) and narrow (64 features): splitting rows across threads
// scales where Eigen's own GEMM threading does not.
#ifndef LDPGRAPH_DAEMON_ENGINE_PARALLEL_H_
#define LDPGRAPH_DAEMON_ENGINE_PARALLEL_H_

#include <Eigen/Core>
#ifdef _OPENMP
#include <omp.h>
#endif

namespace ldpgraph {

inline int EngineThreads() {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

// Makes the engine's kernels (and Eigen's) use `requested` threads, 0: as
// many as OpenMP would; returns how many they use.
inline int SetEngineThreads(int requested) {
#ifdef _OPENMP
  if (requested > 0) omp_set_num_threads(requested);
  const int threads = omp_get_max_threads();
#else
  (void)requested;
  const int threads = 1;
#endif
  Eigen::setNbThreads(threads);
  return threads;
}

// Runs f() on `threads` threads at once (the caller's among them) and
// returns when all are done. They form an OpenMP team, so Eigen's products
// inside each stay on that thread: Eigen parallelises a large product only
// outside a parallel region, and `threads` workers each fanning out to
// every core would oversubscribe the machine (many times slower on 2 cores).
template <typename F>
void OnThreads(int threads, F&& f) {
#ifdef _OPENMP
  if (threads > 1) {
#pragma omp parallel num_threads(threads)
    f();
    return;
  }
#endif
  f();
}

// Calls f(thread, begin, end) for contiguous row blocks [begin, end) covering
// [0, rows), one per thread; inputs of fewer than `parallel_from` rows run on
// the calling thread only (the default suits rows of tens of floats; callers
// whose rows are blocks of far more work pass their own).
template <typename F>
void ForEachRowBlock(Eigen::Index rows, F&& f, Eigen::Index parallel_from = 2048) {
#ifdef _OPENMP
  const int threads = rows >= parallel_from ? omp_get_max_threads() : 1;
  if (threads > 1) {
#pragma omp parallel num_threads(threads)
    {
      const Eigen::Index t = omp_get_thread_num(), n = omp_get_num_threads();
      f(static_cast<int>(t), rows * t / n, rows * (t + 1) / n);
    }
    return;
  }
#endif
  f(0, Eigen::Index{0}, rows);
}

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_ENGINE_PARALLEL_H_
