// Deals one whole graph (as its owner would upload it, gap/held_graph.h)
// out as the parties' shares of a coupled graph: what each party of a
// simulation or a test uploads to its own ldpgraphd. A user's key is her
// node id in the whole graph; each share holds its users' features,
// labels, the edges among them and, as border edges, their friendships
// with other parties' users.
#ifndef LDPGRAPH_DAEMON_FEDERATION_SHARE_SPLIT_H_
#define LDPGRAPH_DAEMON_FEDERATION_SHARE_SPLIT_H_

#include <string>
#include <vector>

#include "gap/held_graph.h"

namespace ldpgraph {

// `party_of`: one index into `names` per node. Errors: kInvalidArgument for
// a size mismatch, an index out of range, an invalid or repeated name, or
// a party without users.
Result<std::vector<HeldGraphParts>> SplitIntoShares(const HeldGraphParts& whole, const std::vector<int>& party_of,
                                                    const std::vector<std::string>& names);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_FEDERATION_SHARE_SPLIT_H_
