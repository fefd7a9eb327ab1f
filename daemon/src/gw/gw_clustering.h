// Clustering graphs in GW space (seed 000, section 4: graphs grouped by
// their GW discrepancy), on a distance matrix alone:
//   spectral   the affinity exp(-D / median(D)), its normalised Laplacian's
//              k leading eigenvectors (rows normalised), k-means on them
//              (Ng, Jordan and Weiss 2001);
//   k-medoids  k graphs as centres, each graph with its nearest centre,
//              alternated until nothing changes (a GW barycentre, the
//              paper's k-means centroid, is a metric of its own to fit; a
//              medoid is one of the graphs, which GW already compares).
// Both start from k-means++ seeding, take the best of several restarts and
// are deterministic for a seed. Scored against the labels by normalised
// mutual information and the adjusted Rand index.
#ifndef LDPGRAPH_DAEMON_GW_GW_CLUSTERING_H_
#define LDPGRAPH_DAEMON_GW_GW_CLUSTERING_H_

#include <cstdint>
#include <vector>

#include <Eigen/Core>

#include "ldpgraph/status.h"

namespace ldpgraph {

// Cluster of every row (0..k-1). Errors: kInvalidArgument for a matrix that
// is not square, has a NaN, infinite or negative entry, or k outside
// [1, rows].
Result<std::vector<int>> SpectralClusters(const Eigen::MatrixXd& distances, int k, std::uint64_t seed);
Result<std::vector<int>> KMedoidClusters(const Eigen::MatrixXd& distances, int k, std::uint64_t seed);

// NMI with the arithmetic-mean normalisation (sklearn's default): 1 for
// the same partition up to names, about 0 for unrelated ones. Requires
// equal lengths.
double NormalizedMutualInformation(const std::vector<int>& a, const std::vector<int>& b);
// Hubert and Arabie's ARI: 1 for the same partition, 0 expected by chance.
double AdjustedRandIndex(const std::vector<int>& a, const std::vector<int>& b);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_GW_GW_CLUSTERING_H_
