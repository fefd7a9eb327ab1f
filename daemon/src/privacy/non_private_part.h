// NonPriv-Part, a baseline of the DPRR paper: the server drops the private
// users entirely and learns from the graph among the non-private ones, who
// reveal their true lists. A graph keeps round(alpha * n) users, chosen
// uniformly; with alpha = 0 every graph is empty (no information at all).
#ifndef LDPGRAPH_DAEMON_PRIVACY_NON_PRIVATE_PART_H_
#define LDPGRAPH_DAEMON_PRIVACY_NON_PRIVATE_PART_H_

#include <cstdint>

#include "dataset/graph_dataset.h"

namespace ldpgraph {

// The dataset of induced subgraphs on each graph's non-private users (nodes
// renumbered in their original order; labels kept). Errors: kInvalidArgument
// for a fraction outside [0, 1].
Result<GraphDataset> KeepNonPrivateUsers(const GraphDataset& input, double non_private_fraction,
                                         std::uint64_t seed, std::uint64_t* kept_entries);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_PRIVACY_NON_PRIVATE_PART_H_
