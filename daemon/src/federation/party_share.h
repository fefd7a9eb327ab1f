// A party's share of a coupled graph as the daemon holds it (a held graph
// with keys and border edges, gap/held_graph.h) turned into the engine's
// PartyGraph for one federation run, whose parties are named in an order
// every party agrees on (the coordinator sends it).
#ifndef LDPGRAPH_DAEMON_FEDERATION_PARTY_SHARE_H_
#define LDPGRAPH_DAEMON_FEDERATION_PARTY_SHARE_H_

#include <string>
#include <vector>

#include "engine/matrix.h"
#include "federation/coupled_graph.h"
#include "federation/federated_sgc.h"
#include "gap/held_graph.h"

namespace ldpgraph {

struct PartyShare {
  PartyGraph graph;                // users by key, increasing (PartyGraph's local order)
  std::vector<std::uint32_t> node;  // local id -> the held graph's node
  Matrix features;                 // dense rows, local order
  std::vector<int> labels;         // local order, -1 unknown
};

// Errors: kInvalidArgument when `held` is not a party share, `self` is not
// among `parties`, `parties` repeats a name, or a border edge names a party
// not among them (or `self`).
Result<PartyShare> MakePartyShare(const HeldGraph& held, const std::vector<std::string>& parties,
                                  const std::string& self);

// The party's train/validation/test users (local ids): its labelled users
// shuffled by `seed` (each party its own stream, mixed with its name), the
// first `train_fraction` train, the next `val_fraction` validate, the rest
// test.
PartyTask SplitPartyUsers(const PartyShare& share, const std::string& self, std::uint64_t seed, double train_fraction,
                          double val_fraction);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_FEDERATION_PARTY_SHARE_H_
