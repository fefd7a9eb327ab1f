#include "experiments/job_runner.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <sys/ioctl.h>
#include <unistd.h>
#include <utility>
#include <vector>
#ifdef _OPENMP
#include <omp.h>
#endif

namespace ldpgraph {
namespace {

using Clock = std::chrono::steady_clock;

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

// Where the workers are, under one mutex, and the progress line drawn from it.
class Progress {
 public:
  Progress(std::string experiment, std::size_t total, std::size_t total_trainings, std::size_t workers)
      : experiment_(std::move(experiment)),
        total_(total),
        total_trainings_(total_trainings),
        running_(workers),
        tty_(::isatty(STDERR_FILENO) != 0) {}

  bool tty() const { return tty_; }

  void Started(std::size_t worker, const std::string& label, int trainings) {
    std::lock_guard<std::mutex> lock(mu_);
    running_[worker] = {label, "", Clock::now(), trainings};
  }

  // A running job's own news: redrawn at most once a second on a terminal,
  // logged every few minutes otherwise.
  void Where(std::size_t worker, const std::string& where) {
    std::lock_guard<std::mutex> lock(mu_);
    running_[worker].where = where;
    const auto now = Clock::now();
    const double since = std::chrono::duration<double>(now - last_line_).count();
    if (since < (tty_ ? 1.0 : 300.0)) return;
    last_line_ = now;
    std::string line = experiment_ + " [" + Counts() + " done, elapsed " + Duration(Seconds(start_, now)) + "] running:";
    for (const Running& r : running_) {
      if (!r.label.empty()) line += " " + r.label + (r.where.empty() ? "" : " (" + r.where + ")") + ";";
    }
    line.pop_back();
    if (tty_) {
      line.resize(std::min(line.size(), TerminalWidth() - 1));
      std::fprintf(stderr, "\r\033[K%s", line.c_str());
    } else {
      std::fprintf(stderr, "%s\n", line.c_str());
    }
    std::fflush(stderr);
  }

  void Finished(std::size_t worker) {
    std::lock_guard<std::mutex> lock(mu_);
    const Running run = running_[worker];  // run.where: e.g. the epoch it stopped at
    running_[worker] = {};
    ++done_;
    trainings_done_ += static_cast<std::size_t>(run.trainings);
    const auto now = Clock::now();
    last_line_ = now;
    const double elapsed = Seconds(start_, now);
    // By trainings, not runs: runs of one command can train different numbers of models.
    const double eta = elapsed / static_cast<double>(trainings_done_) *
                       static_cast<double>(total_trainings_ - trainings_done_);
    std::fprintf(stderr, "%s%s [%s] %s: %s%s, elapsed %s, eta %s%s", tty_ ? "\r\033[K" : "", experiment_.c_str(),
                 Counts().c_str(), run.label.c_str(), Duration(Seconds(run.start, now)).c_str(),
                 run.where.empty() ? "" : (" at " + run.where).c_str(), Duration(elapsed).c_str(), Duration(eta).c_str(),
                 tty_ ? "" : "\n");
    std::fflush(stderr);
  }

 private:
  // "3/20", or "3/20 runs, 15/100 trainings" when runs train several models.
  std::string Counts() const {
    std::string counts = std::to_string(done_) + "/" + std::to_string(total_);
    if (total_trainings_ == total_) return counts;
    return counts + " runs, " + std::to_string(trainings_done_) + "/" + std::to_string(total_trainings_) + " trainings";
  }
  static double Seconds(Clock::time_point from, Clock::time_point to) {
    return std::chrono::duration<double>(to - from).count();
  }
  static std::size_t TerminalWidth() {
    winsize w{};
    return ::ioctl(STDERR_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_col > 20 ? w.ws_col : 120;
  }

  const std::string experiment_;
  const std::size_t total_;
  const std::size_t total_trainings_;
  std::mutex mu_;
  struct Running {  // one worker's job: empty label when idle
    std::string label;
    std::string where;  // what the job last said of itself
    Clock::time_point start;
    int trainings = 0;
  };
  std::vector<Running> running_;  // per worker
  std::size_t done_ = 0;
  std::size_t trainings_done_ = 0;
  const Clock::time_point start_ = Clock::now();
  Clock::time_point last_line_ = start_;
  const bool tty_;
};

}  // namespace

Status RunJobs(const std::string& experiment, std::vector<ExperimentJob> jobs, int workers, std::size_t skipped) {
  const std::size_t total = jobs.size();
  std::size_t trainings = 0;
  for (const ExperimentJob& job : jobs) trainings += static_cast<std::size_t>(std::max(job.trainings, 1));
  std::string plan = std::to_string(total) + " run(s) to do";
  if (trainings != total) plan += ", " + std::to_string(trainings) + " trainings";
  if (skipped > 0) plan = std::to_string(skipped) + " row(s) already in the results, " + plan;
  std::fprintf(stderr, "%s: %s\n", experiment.c_str(), plan.c_str());
  if (total == 0) return Status::Ok();
  workers = std::max(1, std::min<int>(workers, static_cast<int>(total)));
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const int threads_each = std::max(1, cores / workers);

#ifdef _OPENMP
  const int caller_threads = omp_get_max_threads();
#endif
  Progress progress(experiment, total, trainings, static_cast<std::size_t>(workers));
  std::atomic<std::size_t> next{0};
  std::mutex mu;
  Status failure;
  auto worker = [&](std::size_t w) {
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
      progress.Started(w, jobs[i].label, std::max(jobs[i].trainings, 1));
      Status s = jobs[i].run([&](const std::string& where) { progress.Where(w, where); });
      if (!s.ok()) {
        std::lock_guard<std::mutex> lock(mu);
        if (failure.ok()) failure = Status(s.code(), jobs[i].label + ": " + s.message());
        return;
      }
      progress.Finished(w);
    }
  };
  std::vector<std::thread> pool;
  for (int w = 1; w < workers; ++w) pool.emplace_back(worker, static_cast<std::size_t>(w));
  worker(0);
  for (std::thread& t : pool) t.join();
#ifdef _OPENMP
  omp_set_num_threads(caller_threads);  // the calling thread ran jobs too
#endif
  if (progress.tty()) std::fputc('\n', stderr);
  return failure;
}

}  // namespace ldpgraph
