// The customized setting's non-private users send their true friend lists.
// Friendship is mutual, so such a list also tells the server, for every
// other user, whether she is friends with the one who disclosed it: the
// DPRR paper's "only k edges with [k non-private friends] will be
// disclosed". What a private user reported about a disclosed user is then
// noise the server can replace by the truth it already holds. That is
// post-processing of reports and public lists: it costs no privacy and
// touches no entry between two private users.
#ifndef LDPGRAPH_DAEMON_GRAPH_DISCLOSED_LISTS_H_
#define LDPGRAPH_DAEMON_GRAPH_DISCLOSED_LISTS_H_

#include <vector>

#include "graph/csr_graph.h"

namespace ldpgraph {

// `graph` with every entry (u, v) where v disclosed her list set to whether
// v's list names u; rows of disclosed users are kept as they are (they are
// the true lists). Requires disclosed.size() == graph.num_nodes().
// O(nodes + entries).
CsrGraph UseDisclosedLists(const CsrGraph& graph, const std::vector<bool>& disclosed);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_GRAPH_DISCLOSED_LISTS_H_
