#include "experiments/job_runner.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <thread>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

namespace ldpgraph {
namespace {

std::string Duration(double seconds) {
  char buf[32];
  const long s = static_cast<long>(seconds + 0.5);
  if (s >= 3600) {
    std::snprintf(buf, sizeof(buf), "%ldh%02ldm", s / 3600, (s % 3600) / 60);
  } else if (s >= 60) {
    std::snprintf(buf, sizeof(buf), "%ldm%02lds", s / 60, s % 60);
  } else {
    std::snprintf(buf, sizeof(buf), "%lds", s);
  }
  return buf;
}

}  // namespace

Status RunJobs(const std::string& experiment, std::vector<ExperimentJob> jobs, int workers, std::size_t skipped) {
  const bool tty = ::isatty(STDERR_FILENO) != 0;
  const std::size_t total = jobs.size();
  if (skipped > 0) {
    std::fprintf(stderr, "%s: %zu row(s) already in the results, %zu run(s) to do\n", experiment.c_str(), skipped, total);
  }
  if (total == 0) return Status::Ok();
  workers = std::max(1, std::min<int>(workers, static_cast<int>(total)));
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const int threads_each = std::max(1, cores / workers);

#ifdef _OPENMP
  const int caller_threads = omp_get_max_threads();
#endif
  const auto start = std::chrono::steady_clock::now();
  std::atomic<std::size_t> next{0};
  std::size_t done = 0;
  std::mutex mu;
  Status failure;
  auto worker = [&] {
#ifdef _OPENMP
    omp_set_num_threads(threads_each);
#endif
    for (;;) {
      {
        std::lock_guard<std::mutex> lock(mu);
        if (!failure.ok()) return;
      }
      const std::size_t i = next.fetch_add(1);
      if (i >= total) return;
      const auto job_start = std::chrono::steady_clock::now();
      Status s = jobs[i].run();
      const auto now = std::chrono::steady_clock::now();
      std::lock_guard<std::mutex> lock(mu);
      if (!s.ok()) {
        if (failure.ok()) failure = Status(s.code(), jobs[i].label + ": " + s.message());
        return;
      }
      ++done;
      const double elapsed = std::chrono::duration<double>(now - start).count();
      const double eta = elapsed / static_cast<double>(done) * static_cast<double>(total - done);
      std::fprintf(stderr, "%s%s [%zu/%zu] %s: %s, elapsed %s, eta %s%s", tty ? "\r\033[K" : "", experiment.c_str(),
                   done, total, jobs[i].label.c_str(),
                   Duration(std::chrono::duration<double>(now - job_start).count()).c_str(),
                   Duration(elapsed).c_str(), Duration(eta).c_str(), tty ? "" : "\n");
      std::fflush(stderr);
    }
  };
  std::vector<std::thread> pool;
  for (int w = 1; w < workers; ++w) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
#ifdef _OPENMP
  omp_set_num_threads(caller_threads);  // the calling thread ran jobs too
#endif
  if (tty) std::fputc('\n', stderr);
  return failure;
}

}  // namespace ldpgraph
