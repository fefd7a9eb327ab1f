#include "gw/pairwise_gw.h"

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>

namespace ldpgraph {

Result<Eigen::MatrixXd> PairwiseGw(const std::vector<GraphSpace>& graphs, const PairwiseGwOptions& o) {
  if (o.threads < 1) return Status::InvalidArgument("threads must be at least 1");
  const std::size_t n = graphs.size();
  for (std::size_t g = 1; g < n; ++g) {
    if ((graphs[g].features.size() == 0) != (graphs[0].features.size() == 0)) {
      return Status::InvalidArgument("graph " + std::to_string(g) + " differs from graph 0 in having node features");
    }
  }
  const bool fused = n > 0 && graphs[0].features.size() != 0;
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
      Result<GwResult> r = fused ? GromovWasserstein(a.structure, b.structure, FeatureCost(a.features, b.features),
                                                     o.alpha, o.gw)
                                 : GromovWasserstein(a.structure, b.structure, Eigen::MatrixXd(), 1.0, o.gw);
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
  std::vector<std::thread> threads;
  for (int t = 1; t < o.threads; ++t) threads.emplace_back(work);
  // This thread works too, and reports progress between pairs of its own.
  std::thread reporter;
  std::atomic<bool> finished{false};
  if (o.progress) {
    reporter = std::thread([&] {
      while (!finished) {
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
        o.progress(done.load(), pairs.size());
      }
    });
  }
  work();
  for (std::thread& t : threads) t.join();
  finished = true;
  if (reporter.joinable()) reporter.join();
  if (o.progress) o.progress(done.load(), pairs.size());
  if (!error.ok()) return error;
  return out;
}

}  // namespace ldpgraph
