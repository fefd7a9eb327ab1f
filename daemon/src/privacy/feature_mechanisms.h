// Feature perturbation of a whole node dataset as LPGNN's study runs it:
// every node's feature vector (scaled to [0, 1] per dimension) goes through
// one mechanism at epsilon and comes back as the server's estimate.
//   mbm      the multi-bit encoder and rectifier of the SDK (what devices run)
//   1bm      the 1-bit mechanism: every dimension sends one bit at eps / d
//   laplace  x + Lap(d / eps) in every dimension (L1 sensitivity d)
// 1bm and laplace are baselines for the comparison only; devices never run them.
#ifndef LDPGRAPH_DAEMON_PRIVACY_FEATURE_MECHANISMS_H_
#define LDPGRAPH_DAEMON_PRIVACY_FEATURE_MECHANISMS_H_

#include <cstdint>
#include <string>

#include "engine/matrix.h"
#include "engine/node_features.h"
#include "ldpgraph/multibit.h"
#include "ldpgraph/status.h"

namespace ldpgraph {

enum class FeatureMechanism { kMultiBit, kOneBit, kLaplace };

// "mbm", "1bm", "laplace".
Result<FeatureMechanism> ParseFeatureMechanism(const std::string& name);

// Min-max scales every column of `features` to [0, 1] (a constant column becomes 0).
void ScaleColumnsToUnit(Matrix* features);
// The same for either kind. Sparse features stay sparse unless a column with
// unstored zeros has a negative value (its zeros would no longer map to 0):
// then they become dense.
void ScaleColumnsToUnit(NodeFeatures* features);

// Multi-bit estimates as factored features: `deviations` (a row a user, as
// MultiBitRectifier::RectifyDeviations gives them) plus every dimension's
// midpoint, for the rectifier's dimensions.
FactoredFeatures MultiBitEstimates(SparseMatrix deviations, const MultiBitRectifier& rectifier);

// The server's estimate of every row of `features` (values in [0, 1], dense
// or sparse) after each node perturbed hers with `mechanism` at `epsilon`;
// one random stream per node from `seed`. mbm's estimates come factored (the
// m reported dimensions a user, sparse, plus every dimension's midpoint:
// engine/factored_features.h), 1bm's and laplace's dense. Errors: the
// mechanism's, for a bad epsilon; kInvalidArgument for factored features.
Result<NodeFeatures> PerturbFeatures(const NodeFeatures& features, FeatureMechanism mechanism, double epsilon,
                                     std::uint64_t seed);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_PRIVACY_FEATURE_MECHANISMS_H_
