#include "bench/gw_bench.h"

#include <chrono>
#include <cmath>
#include <map>

#include "dataset/graph_dataset.h"
#include "gw/graph_space.h"
#include "gw/gromov_wasserstein.h"
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
  GwOptions gw;  // as ldpgraph gw by default
  gw.extra_starts = 0;
  gw.random_starts = 0;
  const double alpha = 0.5;

  SeededRandomSource rng(o.seed ^ 0x6b3e7cULL);
  // Least squares of log seconds on log (n m), and the time per size bucket.
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  std::map<int, std::pair<double, double>> buckets;  // bucket -> (seconds, nodes) sums
  std::map<int, int> counts;
  for (int k = 0; k < o.pairs; ++k) {
    const std::size_t a = UniformBelow(rng, n);
    std::size_t b = UniformBelow(rng, n - 1);
    if (b >= a) ++b;
    const GraphSpace& x = (*spaces)[a];
    const GraphSpace& y = (*spaces)[b];
    const auto start = std::chrono::steady_clock::now();
    Result<GwResult> r = GromovWasserstein(x.structure, y.structure,
                                           x.features.size() ? FeatureCost(x.features, y.features) : Eigen::MatrixXd(),
                                           x.features.size() ? alpha : 1.0, gw);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!r.ok()) return r.status();
    const double size = static_cast<double>(x.structure.rows()) * static_cast<double>(y.structure.rows());
    const double lx = std::log(size), ly = std::log(std::max(seconds, 1e-9));
    sx += lx, sy += ly, sxx += lx * lx, sxy += lx * ly;
    const int bucket = static_cast<int>(std::ceil(std::log(std::max(size, 1.0) / 100.0) / std::log(4.0)));
    buckets[bucket].first += seconds;
    buckets[bucket].second += 0.5 * static_cast<double>(x.structure.rows() + y.structure.rows());
    ++counts[bucket];
  }
  const double k = o.pairs;
  const double slope = (k * sxy - sx * sy) / (k * sxx - sx * sx);
  const double intercept = (sy - slope * sx) / k;
  double predicted = 0;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + 1; j < n; ++j) {
      const double size = static_cast<double>(ds->graphs[i].num_nodes()) * ds->graphs[j].num_nodes();
      predicted += std::exp(intercept + slope * std::log(size));
    }
  }
  out << "graphs=" << n << "\nall_pairs=" << n * (n - 1) / 2 << "\nsampled_pairs=" << o.pairs
      << "\ngrowth_exponent=" << slope << "\n";
  for (const auto& [bucket, sums] : buckets) {
    const int c = counts[bucket];
    out << "nm_up_to=" << 100.0 * std::pow(4.0, std::max(bucket, 0)) << " pairs=" << c
        << " mean_nodes=" << sums.second / c << " ms_per_pair=" << 1e3 * sums.first / c << "\n";
  }
  out << "threads=" << o.threads << "\npredicted_all_pairs_seconds=" << predicted / o.threads << "\n";
  return Status::Ok();
}

}  // namespace ldpgraph
