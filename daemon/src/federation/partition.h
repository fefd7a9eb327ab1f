// How the users of one graph are dealt to parties for FedCog's experiments:
//   random:    each user to a party uniformly, every party the same size
//              (give or take one): most friendships cross parties;
//   community: parties grown one after another from a random seed, always
//              adding the user with the most friends inside, until each
//              holds its share: connected regions, as parties that are
//              regions or companies would be, with few friendships across
//              (the paper splits by communities too).
#ifndef LDPGRAPH_DAEMON_FEDERATION_PARTITION_H_
#define LDPGRAPH_DAEMON_FEDERATION_PARTITION_H_

#include <cstdint>
#include <string>
#include <vector>

#include "graph/csr_graph.h"
#include "ldpgraph/status.h"

namespace ldpgraph {

// One party index in [0, parties) per user; no party empty. Errors:
// kInvalidArgument for an unknown kind, parties < 1 or more parties than users.
Result<std::vector<int>> PartitionUsers(const CsrGraph& graph, const std::string& kind, int parties,
                                        std::uint64_t seed);

// Friendships whose ends are in different parties (each counted once).
std::uint64_t CrossEdges(const CsrGraph& graph, const std::vector<int>& party_of);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_FEDERATION_PARTITION_H_
