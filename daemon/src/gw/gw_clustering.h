// Clustering graphs in GW space (seed 000, section 4: graphs grouped by
// their GW discrepancy), on a distance matrix alone:
//   spectral   the affinity exp(-D / median(D)), its normalised Laplacian's
//              k leading eigenvectors (rows normalised), k-means on them
//              (Ng, Jordan and Weiss 2001);
//   k-medoids  k graphs as centres, each graph with its nearest centre,
//              alternated until nothing changes (a medoid is one of the
//              graphs, which GW already compares; the paper's k-means,
//              whose centres are GW barycentres, needs the graphs
//              themselves: gw_kmeans.h).
// Both start from k-means++ seeding, take the best of several restarts and
// are deterministic for a seed. Scored against the labels by normalised
// mutual information and the adjusted Rand index.
#ifndef LDPGRAPH_DAEMON_GW_GW_CLUSTERING_H_
#define LDPGRAPH_DAEMON_GW_GW_CLUSTERING_H_

#include <cstdint>
#include <functional>
#include <vector>

#include <Eigen/Core>

#include "ldpgraph/random_source.h"
#include "ldpgraph/status.h"

namespace ldpgraph {

// Cluster of every row (0..k-1). Errors: kInvalidArgument for a matrix that
// is not square, has a NaN, infinite or negative entry, or k outside
// [1, rows].
Result<std::vector<int>> SpectralClusters(const Eigen::MatrixXd& distances, int k, std::uint64_t seed);
Result<std::vector<int>> KMedoidClusters(const Eigen::MatrixXd& distances, int k, std::uint64_t seed);

// k-means++ seeding of k centres among n items (1 <= k <= n) by a cost
// between items: the first centre uniform, each next one with probability
// proportional to an item's cost to its nearest centre. cost(i, c) is
// called for every item and each centre but the last.
std::vector<int> KMeansPlusPlusSeeds(int n, int k, const std::function<double(int, int)>& cost, RandomSource& rng);

// NMI with the arithmetic-mean normalisation (sklearn's default): 1 for
// the same partition up to names, about 0 for unrelated ones. Requires
// equal lengths.
double NormalizedMutualInformation(const std::vector<int>& a, const std::vector<int>& b);
// Hubert and Arabie's ARI: 1 for the same partition, 0 expected by chance.
double AdjustedRandIndex(const std::vector<int>& a, const std::vector<int>& b);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_GW_GW_CLUSTERING_H_
