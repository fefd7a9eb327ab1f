#include "bench/gw_bench.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <map>
#include <mutex>

#include "dataset/graph_dataset.h"
#include "engine/parallel.h"
#include "gw/graph_space.h"
#include "gw/gromov_wasserstein.h"
#include "gw/pairwise_gw.h"
#include "ldpgraph/random_source.h"
#include "ldpgraph/samplers.h"

namespace ldpgraph {

Status RunGwBench(const GwBenchOptions& o, std::ostream& out) {
  if (o.pairs < 10 || o.threads < 1) return Status::InvalidArgument("need --pairs >= 10 and --threads >= 1");
  Result<GraphDataset> ds = ReadDataset(o.dataset);
  if (!ds.ok()) return ds.status();
  const std::size_t n = ds->graphs.size();
  if (n < 2) return Status::InvalidArgument("a dataset of at least 2 graphs is needed");
  Result<std::vector<GraphSpace>> spaces = GraphSpaces(*ds, GwStructure::kAdjacency);
  if (!spaces.ok()) return spaces.status();
  const GwOptions gw = GwOptions::ProductStartOnly();  // as ldpgraph gw by default
  const double alpha = 0.5;

  auto bucket_of = [&](std::size_t a, std::size_t b) {
    const double nm = static_cast<double>((*spaces)[a].structure.rows()) * static_cast<double>((*spaces)[b].structure.rows());
    return std::max(0, static_cast<int>(std::ceil(std::log(nm / 100.0) / std::log(4.0))));
  };
  std::map<int, std::vector<std::pair<std::uint32_t, std::uint32_t>>> all;  // bucket -> its pairs
  for (std::uint32_t a = 0; a < n; ++a) {
    for (std::uint32_t b = a + 1; b < n; ++b) all[bucket_of(a, b)].emplace_back(a, b);
  }
  const double total_pairs = static_cast<double>(n) * static_cast<double>(n - 1) / 2;
  // Half in proportion, half evenly; never more than a bucket has.
  SeededRandomSource rng(o.seed ^ 0x6b3e7cULL);
  std::vector<std::pair<std::size_t, std::size_t>> sample;
  for (auto& [bucket, members] : all) {
    const double share = 0.5 * o.pairs * static_cast<double>(members.size()) / total_pairs +
                         0.5 * o.pairs / static_cast<double>(all.size());
    const std::size_t take = std::min(members.size(), std::max<std::size_t>(1, static_cast<std::size_t>(share)));
    for (std::size_t k = 0; k < take; ++k) {  // a partial shuffle: distinct pairs
      std::swap(members[k], members[k + UniformBelow(rng, members.size() - k)]);
      sample.emplace_back(members[k].first, members[k].second);
    }
  }
  std::vector<double> seconds(sample.size());
  std::vector<int> iterations(sample.size());
  std::atomic<std::size_t> next{0};
  std::mutex error_mu;
  Status error;
  auto work = [&] {
    for (std::size_t k = next++; k < sample.size(); k = next++) {
      const GraphSpace& x = (*spaces)[sample[k].first];
      const GraphSpace& y = (*spaces)[sample[k].second];
      const auto start = std::chrono::steady_clock::now();
      Result<GwResult> r = SpaceGw(x, y, alpha, gw);
      seconds[k] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (r.ok()) iterations[k] = r->iterations;
      if (!r.ok()) {
        std::lock_guard<std::mutex> lock(error_mu);
        error = r.status();
      }
    }
  };
  const auto wall_start = std::chrono::steady_clock::now();
  OnThreads(o.threads, work);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  if (!error.ok()) return error;

  // Least squares of log seconds on log (n m), and the time per size bucket.
  double sx = 0, sy = 0, sxx = 0, sxy = 0, busy = 0;
  struct Bucket {
    double seconds = 0, nodes = 0;
    long long iterations = 0;
    int sampled = 0;
  };
  std::map<int, Bucket> buckets;
  for (std::size_t k = 0; k < sample.size(); ++k) {
    const double na = static_cast<double>((*spaces)[sample[k].first].structure.rows());
    const double nb = static_cast<double>((*spaces)[sample[k].second].structure.rows());
    const double lx = std::log(na * nb), ly = std::log(std::max(seconds[k], 1e-9));
    sx += lx, sy += ly, sxx += lx * lx, sxy += lx * ly;
    busy += seconds[k];
    Bucket& b = buckets[bucket_of(sample[k].first, sample[k].second)];
    b.seconds += seconds[k];
    b.nodes += 0.5 * (na + nb);
    b.iterations += iterations[k];
    ++b.sampled;
  }
  const double k = static_cast<double>(sample.size());
  const double slope = (k * sxy - sx * sy) / (k * sxx - sx * sx);
  out << "graphs=" << n << "\nall_pairs=" << n * (n - 1) / 2 << "\nsampled_pairs=" << sample.size()
      << "\ngrowth_exponent=" << slope << "\n";
  double predicted_busy = 0;  // seconds of solving, summed over every pair
  for (const auto& [bucket, b] : buckets) {
    const double count = static_cast<double>(all[bucket].size());
    predicted_busy += count * b.seconds / b.sampled;
    out << "nm_up_to=" << 100.0 * std::pow(4.0, bucket) << " pairs=" << all[bucket].size() << " sampled=" << b.sampled
        << " mean_nodes=" << b.nodes / b.sampled << " ms_per_pair=" << 1e3 * b.seconds / b.sampled
        << " iterations_mean=" << static_cast<double>(b.iterations) / b.sampled << "\n";
  }
  // The sample's own speed-up (solving time over wall time) carries over.
  out << "threads=" << o.threads << "\nsample_seconds=" << wall
      << "\npredicted_all_pairs_seconds=" << predicted_busy * wall / std::max(busy, 1e-12) << "\n";
  return Status::Ok();
}

}  // namespace ldpgraph
