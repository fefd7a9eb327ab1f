#include "gw/gw_kmeans.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "gw/gw_clustering.h"
#include "gw/pairwise_gw.h"
#include "ldpgraph/random_source.h"

namespace ldpgraph {
namespace {

// The barycentre of `members` for their couplings to it (member s: n_s x N),
// equal weights.
GraphSpace Combine(const std::vector<const GraphSpace*>& members, const std::vector<Eigen::MatrixXd>& couplings,
                   Eigen::Index size) {
  GraphSpace out;
  out.structure = Eigen::MatrixXd::Zero(size, size);
  const bool fused = members[0]->features.size() != 0;
  if (fused) out.features = Eigen::MatrixXd::Zero(size, members[0]->features.cols());
  for (std::size_t s = 0; s < members.size(); ++s) {
    const Eigen::MatrixXd& t = couplings[s];
    out.structure.noalias() += t.transpose() * members[s]->structure * t;
    if (fused) out.features.noalias() += t.transpose() * members[s]->features;
  }
  const double share = 1.0 / static_cast<double>(members.size()), n = static_cast<double>(size);
  out.structure *= share * n * n;  // / (p p^T), p = 1 / N
  out.structure = 0.5 * (out.structure + out.structure.transpose()).eval();  // symmetric, rounding aside
  if (fused) out.features *= share * n;
  return out;
}

// A graph carried over to `size` nodes: its nodes spread in order over the
// new ones (a barycentre of one graph under the proportional coupling).
GraphSpace Resized(const GraphSpace& g, Eigen::Index size) {
  std::vector<int> from(static_cast<std::size_t>(g.structure.rows())), to(static_cast<std::size_t>(size));
  std::iota(from.begin(), from.end(), 0);
  std::iota(to.begin(), to.end(), 0);
  return Combine({&g}, {SortedCoupling(from, to)}, size);
}

// f(i) for i in [0, count) on `threads` threads; the first error, naming
// what(i), stops the rest.
template <typename F, typename W>
Status ForEach(std::size_t count, int threads, F&& f, W&& what) {
  std::vector<Status> errors(count);
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
  for (std::size_t i = 0; i < count; ++i) errors[i] = f(i);
  for (std::size_t i = 0; i < count; ++i) {
    if (!errors[i].ok()) return Status(errors[i].code(), what(i) + ": " + errors[i].message());
  }
  return Status::Ok();
}

}  // namespace

Result<GwKMeansResult> GwKMeans(const std::vector<GraphSpace>& graphs, const GwKMeansOptions& o) {
  const std::size_t n = graphs.size();
  if (n == 0) return Status::InvalidArgument("GW k-means needs at least one graph");
  if (o.k < 1 || static_cast<std::size_t>(o.k) > n) {
    return Status::InvalidArgument("k = " + std::to_string(o.k) + " clusters of " + std::to_string(n) + " graphs");
  }
  if (o.threads < 1 || o.max_rounds < 1 || o.barycentre_iterations < 1) {
    return Status::InvalidArgument("threads, rounds and barycentre iterations must be at least 1");
  }
  for (std::size_t g = 0; g < n; ++g) {
    if ((graphs[g].features.size() == 0) != (graphs[0].features.size() == 0)) {
      return Status::InvalidArgument("graph " + std::to_string(g) + " differs from graph 0 in having node features");
    }
    if (graphs[g].structure.size() == 0) return Status::InvalidArgument("graph " + std::to_string(g) + " is empty");
  }
  const auto k = static_cast<std::size_t>(o.k);

  // First centres: graphs, k-means++ on their (F)GW.
  SeededRandomSource rng(o.seed);
  Status seeding;
  const std::vector<int> seeds = KMeansPlusPlusSeeds(
      static_cast<int>(n), o.k,
      [&](int i, int c) {
        Result<GwResult> r = SpaceGw(graphs[static_cast<std::size_t>(i)], graphs[static_cast<std::size_t>(c)], o.alpha, o.gw);
        if (r.ok()) return r->value * r->value;
        if (seeding.ok()) seeding = Status(r.status().code(), "graph " + std::to_string(i) + ": " + r.status().message());
        return 0.0;
      },
      rng);
  LDPGRAPH_RETURN_IF_ERROR(seeding);
  GwKMeansResult result;
  for (int s : seeds) result.centres.push_back(graphs[static_cast<std::size_t>(s)]);

  Eigen::MatrixXd cost(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(k));
  for (int round = 1;; ++round) {
    // Assign: every graph to its nearest centre.
    LDPGRAPH_RETURN_IF_ERROR(ForEach(
        n * k, o.threads,
        [&](std::size_t t) {
          Result<GwResult> r = SpaceGw(graphs[t / k], result.centres[t % k], o.alpha, o.gw);
          if (!r.ok()) return r.status();
          cost(static_cast<Eigen::Index>(t / k), static_cast<Eigen::Index>(t % k)) = r->value;
          return Status::Ok();
        },
        [k](std::size_t t) { return "graph " + std::to_string(t / k) + " against centre " + std::to_string(t % k); }));
    std::vector<int> clusters(n);
    result.cost = 0;
    for (std::size_t g = 0; g < n; ++g) {
      Eigen::Index c = 0;
      result.cost += cost.row(static_cast<Eigen::Index>(g)).minCoeff(&c);
      clusters[g] = static_cast<int>(c);
    }
    result.rounds = round;
    const bool settled = clusters == result.clusters;
    result.clusters = std::move(clusters);
    if (settled || round == o.max_rounds) break;

    // Update: each centre becomes its cluster's barycentre, as many nodes
    // as its graphs have on average.
    for (std::size_t c = 0; c < k; ++c) {
      std::vector<const GraphSpace*> members;
      std::size_t nodes = 0, nearest = n;
      for (std::size_t g = 0; g < n; ++g) {
        if (static_cast<std::size_t>(result.clusters[g]) != c) continue;
        members.push_back(&graphs[g]);
        nodes += static_cast<std::size_t>(graphs[g].structure.rows());
        if (nearest == n || cost(static_cast<Eigen::Index>(g), static_cast<Eigen::Index>(c)) <
                                cost(static_cast<Eigen::Index>(nearest), static_cast<Eigen::Index>(c))) {
          nearest = g;
        }
      }
      if (members.empty()) continue;  // an empty cluster keeps its centre
      const auto size = static_cast<Eigen::Index>(
          std::max<double>(1.0, std::round(static_cast<double>(nodes) / static_cast<double>(members.size()))));
      GraphSpace centre = result.centres[c];
      if (centre.structure.rows() != size) centre = Resized(graphs[nearest], size);
      std::vector<Eigen::MatrixXd> couplings(members.size());
      for (int it = 0; it < o.barycentre_iterations; ++it) {
        LDPGRAPH_RETURN_IF_ERROR(ForEach(
            members.size(), o.threads,
            [&](std::size_t s) {
              Result<GwResult> r = SpaceGw(*members[s], centre, o.alpha, o.gw);
              if (!r.ok()) return r.status();
              couplings[s] = std::move(r->coupling);
              return Status::Ok();
            },
            [c](std::size_t s) { return "graph " + std::to_string(s) + " of cluster " + std::to_string(c); }));
        centre = Combine(members, couplings, size);
      }
      result.centres[c] = std::move(centre);
    }
  }
  return result;
}

}  // namespace ldpgraph
