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

  // Uniform random pairs: an unbiased sample of all pairs, so the sample's
  // wall time on `threads` threads scales to the whole run's.
  SeededRandomSource rng(o.seed ^ 0x6b3e7cULL);
  std::vector<std::pair<std::size_t, std::size_t>> sample;
  for (int k = 0; k < o.pairs; ++k) {
    const std::size_t a = UniformBelow(rng, n);
    std::size_t b = UniformBelow(rng, n - 1);
    if (b >= a) ++b;
    sample.emplace_back(a, b);
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
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  std::map<int, std::pair<double, double>> buckets;  // bucket -> (seconds, nodes) sums
  std::map<int, int> counts;
  std::map<int, long long> bucket_iterations;
  for (std::size_t k = 0; k < sample.size(); ++k) {
    const double na = static_cast<double>((*spaces)[sample[k].first].structure.rows());
    const double nb = static_cast<double>((*spaces)[sample[k].second].structure.rows());
    const double lx = std::log(na * nb), ly = std::log(std::max(seconds[k], 1e-9));
    sx += lx, sy += ly, sxx += lx * lx, sxy += lx * ly;
    const int bucket = std::max(0, static_cast<int>(std::ceil(std::log(na * nb / 100.0) / std::log(4.0))));
    buckets[bucket].first += seconds[k];
    buckets[bucket].second += 0.5 * (na + nb);
    ++counts[bucket];
    bucket_iterations[bucket] += iterations[k];
  }
  const double k = o.pairs;
  const double slope = (k * sxy - sx * sy) / (k * sxx - sx * sx);
  const double all = static_cast<double>(n) * static_cast<double>(n - 1) / 2;
  const double predicted = wall * all / k;
  out << "graphs=" << n << "\nall_pairs=" << n * (n - 1) / 2 << "\nsampled_pairs=" << o.pairs
      << "\ngrowth_exponent=" << slope << "\n";
  for (const auto& [bucket, sums] : buckets) {
    const int c = counts[bucket];
    out << "nm_up_to=" << 100.0 * std::pow(4.0, bucket) << " pairs=" << c
        << " mean_nodes=" << sums.second / c << " ms_per_pair=" << 1e3 * sums.first / c
        << " iterations_mean=" << static_cast<double>(bucket_iterations[bucket]) / c << "\n";
  }
  out << "threads=" << o.threads << "\nsample_seconds=" << wall << "\npredicted_all_pairs_seconds=" << predicted << "\n";
  return Status::Ok();
}

}  // namespace ldpgraph
