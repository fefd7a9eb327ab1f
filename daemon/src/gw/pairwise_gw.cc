#include "gw/pairwise_gw.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "engine/parallel.h"

namespace ldpgraph {

Result<GwResult> SpaceGw(const GraphSpace& a, const GraphSpace& b, double alpha, const GwOptions& options) {
  if (a.features.size() == 0) return GromovWasserstein(a.structure, b.structure, Eigen::MatrixXd(), 1.0, options);
  return GromovWasserstein(a.structure, b.structure, FeatureCost(a.features, b.features), alpha, options);
}

Result<Eigen::MatrixXd> PairwiseGw(const std::vector<GraphSpace>& graphs, const PairwiseGwOptions& o) {
  if (o.threads < 1) return Status::InvalidArgument("threads must be at least 1");
  const std::size_t n = graphs.size();
  for (std::size_t g = 1; g < n; ++g) {
    if ((graphs[g].features.size() == 0) != (graphs[0].features.size() == 0)) {
      return Status::InvalidArgument("graph " + std::to_string(g) + " differs from graph 0 in having node features");
    }
  }
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  for (std::uint32_t i = 0; i < n; ++i) {
    for (std::uint32_t j = i + 1; j < n; ++j) pairs.emplace_back(i, j);
  }
  Eigen::MatrixXd out = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(n));
  std::atomic<std::size_t> next{0}, done{0};
  std::mutex error_mu;
  Status error;
  auto work = [&] {
    for (;;) {
      const std::size_t k = next.fetch_add(1);
      if (k >= pairs.size()) return;
      const auto [i, j] = pairs[k];
      const GraphSpace& a = graphs[i];
      const GraphSpace& b = graphs[j];
      Result<GwResult> r = SpaceGw(a, b, o.alpha, o.gw);
      if (!r.ok()) {
        std::lock_guard<std::mutex> lock(error_mu);
        if (error.ok()) {
          error = Status(r.status().code(), "graphs " + std::to_string(i) + " and " + std::to_string(j) + ": " +
                                                r.status().message());
        }
        next = pairs.size();
        return;
      }
      out(i, j) = out(j, i) = r->value;  // each pair has its own cells
      done.fetch_add(1);
    }
  };
  // Progress twice a second from a thread of its own, woken at once when the
  // work ends (a plain sleep would add up to half a second to every run).
  std::thread reporter;
  std::mutex finished_mu;
  std::condition_variable finished_cv;
  bool finished = false;
  if (o.progress) {
    reporter = std::thread([&] {
      std::unique_lock<std::mutex> lock(finished_mu);
      while (!finished_cv.wait_for(lock, std::chrono::milliseconds(500), [&] { return finished; })) {
        o.progress(done.load(), pairs.size());
      }
    });
  }
  OnThreads(o.threads, work);
  {
    std::lock_guard<std::mutex> lock(finished_mu);
    finished = true;
  }
  finished_cv.notify_all();
  if (reporter.joinable()) reporter.join();
  if (o.progress) o.progress(done.load(), pairs.size());
  if (!error.ok()) return error;
  return out;
}

}  // namespace ldpgraph
