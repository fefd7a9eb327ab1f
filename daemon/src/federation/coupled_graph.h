// FedCog's graph decoupling (seed 002, ALGORITHMS.md section 6): one graph
// whose users are split among parties. Each party holds its own users, the
// edges among them and the edges that cross to other parties' users; it
// never holds another party's features or internal edges. For GCN each
// party splits its share into
//   the internal graph: its users and the edges among them;
//   the border graph:   for each of its users, the other parties' users she
//                       is a friend of (by global id and party; what crosses
//                       between parties is in decoupled_gcn.h).
// A user's degree counts both kinds of friends: GCN's normalisation needs
// the whole graph's degrees, which the party knows because it holds its
// users' cross edges.
#ifndef LDPGRAPH_DAEMON_FEDERATION_COUPLED_GRAPH_H_
#define LDPGRAPH_DAEMON_FEDERATION_COUPLED_GRAPH_H_

#include <cstdint>
#include <vector>

#include "graph/csr_graph.h"
#include "ldpgraph/status.h"

namespace ldpgraph {

struct PartyGraph {
  int party = 0;
  // The party's users by global id, increasing; local id = index here.
  std::vector<std::uint32_t> users;
  CsrGraph internal;  // local ids
  // Per local user: her friends in other parties, by global id, increasing,
  // and the party that holds each (the inter-edges name both ends).
  std::vector<std::uint64_t> border_offsets;  // users.size() + 1
  std::vector<std::uint32_t> border_targets;
  std::vector<int> border_party;
  std::vector<std::uint32_t> degree;  // whole-graph degree of each local user

  std::uint32_t num_users() const { return static_cast<std::uint32_t>(users.size()); }
};

// Splits a symmetric `graph` by `party_of` (one party index per user, in
// [0, parties)). Errors: kInvalidArgument for a size mismatch, a party
// index out of range, a party without users, or parties < 1.
Result<std::vector<PartyGraph>> DecoupleGraph(const CsrGraph& graph, const std::vector<int>& party_of, int parties);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_FEDERATION_COUPLED_GRAPH_H_
