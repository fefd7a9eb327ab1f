// k-means in GW space, as seed 000 clusters graphs: every centre is a
// graph of its own, the GW barycentre of its cluster (Peyre, Cuturi and
// Solomon 2016; with node features, the fused GW barycentre of Vayer et
// al. 2019), with as many nodes as the cluster's graphs have on average.
// Lloyd's alternation:
//   assign   every graph to the centre of least (F)GW;
//   update   each centre by a few barycentre steps: couple every member to
//            the centre (T_s, n_s x N), then, with p = 1/N per centre node,
//              C = mean_s T_s^T C_s T_s / (p p^T),   F = mean_s T_s^T X_s / p
//            (the exact minimiser of the mean square-loss (F)GW for the
//            couplings fixed).
// The first centres are graphs picked by k-means++ on their (F)GW. Unlike
// k-medoids (gw_clustering.h), which works on a distance matrix alone, this
// needs the graphs' spaces, and a centre need not be one of the graphs.
#ifndef LDPGRAPH_DAEMON_GW_GW_KMEANS_H_
#define LDPGRAPH_DAEMON_GW_GW_KMEANS_H_

#include <cstdint>
#include <vector>

#include "gw/gromov_wasserstein.h"
#include "gw/graph_space.h"

namespace ldpgraph {

struct GwKMeansOptions {
  int k = 2;
  int max_rounds = 10;             // assignments stop changing sooner, as a rule
  int barycentre_iterations = 3;  // per round and centre
  double alpha = 0.5;              // fused GW's weight of the structure (graphs with features)
  GwOptions gw = GwOptions::ProductStartOnly();
  int threads = 2;
  std::uint64_t seed = 0;
};

struct GwKMeansResult {
  std::vector<int> clusters;         // per graph, 0..k-1
  std::vector<GraphSpace> centres;  // the barycentres
  double cost = 0;                   // sum of every graph's (F)GW to its centre
  int rounds = 0;
};

// Errors: kInvalidArgument for no graphs, k outside [1, graphs], threads,
// rounds or barycentre iterations below 1, some graphs with node features
// and others not; GromovWasserstein's, naming the graph.
Result<GwKMeansResult> GwKMeans(const std::vector<GraphSpace>& graphs, const GwKMeansOptions& options);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_GW_GW_KMEANS_H_
