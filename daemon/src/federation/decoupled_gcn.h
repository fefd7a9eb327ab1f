// A GCN layer computed by the parties of a coupled graph together (FedCog,
// seed 002 section 4.2):
//   H' = D^-1/2 (A + I) D^-1/2 (H W) + b
// For user v of party P, with S_u = (H W)_u / sqrt(1 + d_u):
//   1. internal propagation, each party alone: S for its users, and for
//      every other party's user v that some of its users are friends with,
//      the partial sum of their S (the paper's "additional node" v_i);
//   2. exchange: each party sends each other party the partial sums for
//      that party's users;
//   3. border propagation, each party alone: H'_v = (S_v + sum over
//      internal friends S_u + the partial sums received for v)
//      / sqrt(1 + d_v) + b.
// No party sees another's features, internal edges or H: only, for each of
// its own users, sums over her friends in each other party of rows already
// multiplied by the shared weights. The result is GCN's on the whole graph
// (the paper's Theorem 1).
#ifndef LDPGRAPH_DAEMON_FEDERATION_DECOUPLED_GCN_H_
#define LDPGRAPH_DAEMON_FEDERATION_DECOUPLED_GCN_H_

#include <cstdint>
#include <vector>

#include "engine/matrix.h"
#include "federation/coupled_graph.h"

namespace ldpgraph {

// What party `from_party` sends party `to_party` in step 2: for each of the
// latter's users with friends in the former, the partial sum over them.
struct BorderMessage {
  int from_party = 0, to_party = 0;
  std::vector<std::uint32_t> users;  // to_party's users, global ids, increasing
  Matrix rows;                       // one partial sum per user
};

// Step 1's scaling: row v of `z` (the party's users' H W) over sqrt(1 + d_v).
Matrix ScaledStates(const PartyGraph& party, const Matrix& z);

// Step 1's partial sums and step 2's messages: one per other party that
// holds a friend of this party's users.
std::vector<BorderMessage> BorderMessages(const PartyGraph& party, const Matrix& scaled);

// Step 3 without the bias. `received` holds messages for any party (those
// not for this one are skipped). Errors: kFailedPrecondition naming the
// first user with friends in a party that sent nothing for her,
// kInvalidArgument when `scaled` does not have a row per user, a message's
// width differs, or a message names a user of another party.
Result<Matrix> PropagateLayer(const PartyGraph& party, const Matrix& scaled,
                              const std::vector<BorderMessage>& received);

// Steps 1-3 (without the bias) for every party in this process: `z` holds
// each party's users' H W; adds the bytes of the messages to `bytes_sent`
// (may be null). Errors: kInvalidArgument for a size mismatch; PropagateLayer's.
Result<std::vector<Matrix>> DecoupledRound(const std::vector<PartyGraph>& parties, const std::vector<Matrix>& z,
                                           std::uint64_t* bytes_sent);

// A whole GCN forward pass (no dropout), every party in this process: the
// parties' class scores for their users. `weights` and `biases` per layer,
// an activation (SELU, or ReLU) between layers, as NodeGnnModel's GCN.
Result<std::vector<Matrix>> DecoupledGcnForward(const std::vector<PartyGraph>& parties,
                                                const std::vector<Matrix>& features,
                                                const std::vector<const Matrix*>& weights,
                                                const std::vector<const Matrix*>& biases, bool selu);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_FEDERATION_DECOUPLED_GCN_H_
