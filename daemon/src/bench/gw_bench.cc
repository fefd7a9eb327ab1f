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

  // A pair's bucket depends on its graphs' sizes only, so the buckets are
  // counted over pairs of sizes, O(distinct sizes^2) rather than O(graphs^2)
  // (which a dataset of 10^5 graphs could not hold).
  auto bucket_of = [](double nm) {
    return std::max(0, static_cast<int>(std::ceil(std::log(nm / 100.0) / std::log(4.0))));
  };
  std::map<Eigen::Index, std::vector<std::uint32_t>> by_size;
  for (std::uint32_t g = 0; g < n; ++g) by_size[(*spaces)[g].structure.rows()].push_back(g);
  struct SizePair {
    const std::vector<std::uint32_t>* a;
    const std::vector<std::uint32_t>* b;  // == a: two distinct graphs of one size
    double pairs;
  };
  struct SizeBucket {
    std::vector<SizePair> size_pairs;
    double pairs = 0;  // over its size pairs
  };
  std::map<int, SizeBucket> all;
  for (auto x = by_size.begin(); x != by_size.end(); ++x) {
    for (auto y = x; y != by_size.end(); ++y) {
      const double na = static_cast<double>(x->second.size()), nb = static_cast<double>(y->second.size());
      const double count = x == y ? 0.5 * na * (na - 1) : na * nb;
      if (count == 0) continue;
      SizeBucket& bucket = all[bucket_of(static_cast<double>(x->first) * static_cast<double>(y->first))];
      bucket.size_pairs.push_back({&x->second, &y->second, count});
      bucket.pairs += count;
    }
  }
  // Half of the sample in proportion to the buckets' pairs, half evenly
  // across them; within a bucket, pairs uniformly at random (with
  // replacement: an unbiased mean, and the few pairs of the largest graphs
  // are drawn however few they are).
  const double total_pairs = static_cast<double>(n) * static_cast<double>(n - 1) / 2;
  SeededRandomSource rng(o.seed ^ 0x6b3e7cULL);
  std::vector<std::pair<std::size_t, std::size_t>> sample;
  for (const auto& [index, bucket] : all) {
    const double share = 0.5 * o.pairs * bucket.pairs / total_pairs + 0.5 * o.pairs / static_cast<double>(all.size());
    const std::size_t take =
        std::min(static_cast<std::size_t>(bucket.pairs), std::max<std::size_t>(1, static_cast<std::size_t>(share)));
    for (std::size_t k = 0; k < take; ++k) {
      double at = UniformUnit(rng) * bucket.pairs;
      std::size_t e = 0;
      while (e + 1 < bucket.size_pairs.size() && at >= bucket.size_pairs[e].pairs) at -= bucket.size_pairs[e++].pairs;
      const SizePair& sp = bucket.size_pairs[e];
      const std::size_t i = UniformBelow(rng, sp.a->size());
      std::size_t j = UniformBelow(rng, sp.b->size() - (sp.a == sp.b ? 1 : 0));
      if (sp.a == sp.b && j >= i) ++j;
      sample.emplace_back((*sp.a)[i], (*sp.b)[j]);
    }
  }
  // Mixed sizes on every thread, so that the sample's parallel speed-up is
  // the whole run's, not one thread finishing the largest pairs alone.
  for (std::size_t k = sample.size(); k > 1; --k) std::swap(sample[k - 1], sample[UniformBelow(rng, k)]);
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
      if (r.ok()) {
        iterations[k] = r->iterations;
      } else {
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
    Bucket& b = buckets[bucket_of(na * nb)];
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
    const double pairs = all[bucket].pairs;
    predicted_busy += pairs * b.seconds / b.sampled;
    out << "nm_up_to=" << 100.0 * std::pow(4.0, bucket) << " pairs=" << static_cast<long long>(pairs)
        << " sampled=" << b.sampled << " mean_nodes=" << b.nodes / b.sampled
        << " ms_per_pair=" << 1e3 * b.seconds / b.sampled
        << " iterations_mean=" << static_cast<double>(b.iterations) / b.sampled << "\n";
  }
  // The sample's own speed-up (solving time over wall time) carries over.
  out << "threads=" << o.threads << "\nsample_seconds=" << wall
      << "\npredicted_all_pairs_seconds=" << predicted_busy * wall / std::max(busy, 1e-12) << "\n";
  return Status::Ok();
}

}  // namespace ldpgraph
