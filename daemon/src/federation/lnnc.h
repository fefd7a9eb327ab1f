// Local Nearest Neighbour Connection (LNNC, seed 002 section 4.5): FedCog's
// privacy-enhanced variant. A party's user whose friends all sit in other
// parties is the one case where the partial sums it sends can be solved
// for her features (the paper's Theorem 2). Before propagation the party
// gives each such user one intra-edge, to the user of its own whose
// features are nearest in angle; the graph changes a little, so the model
// is no longer exactly the centralised one.
#ifndef LDPGRAPH_DAEMON_FEDERATION_LNNC_H_
#define LDPGRAPH_DAEMON_FEDERATION_LNNC_H_

#include <cstddef>

#include "engine/matrix.h"
#include "federation/coupled_graph.h"

namespace ldpgraph {

// Adds the edges to `party` (its internal graph and both ends' degrees)
// and returns how many. Only users with friends in other parties and none
// in their own need one: a user without friends is never in a message.
// `features` holds the party's users' rows in its local order. A party of
// one user has no one to connect and is left as it is.
std::size_t ConnectLoneBorderUsers(const Matrix& features, PartyGraph* party);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_FEDERATION_LNNC_H_
