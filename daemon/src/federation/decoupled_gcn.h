// A GCN layer computed by the parties of a coupled graph together (FedCog):
//   H' = D^-1/2 (A + I) D^-1/2 (H W) + b
// splits, for a user v of party P, into
//   1. each party, alone: Z = H W on its users, then S_v = Z_v / sqrt(1 + d_v);
//   2. exchange: each party sends the rows S of its border users (those with
//      a friend in another party) to the parties that need them;
//   3. each party, alone: H'_v = (S_v + sum over internal friends S_u
//      + sum over border friends S_u received) / sqrt(1 + d_v) + b.
// Step 3's first two terms are the internal propagation, the third the
// border propagation. No party sees another's features, internal edges or
// H: only the rows S of users with a friend across, already multiplied by
// the shared weights. The sum is GCN's on the whole graph.
#ifndef LDPGRAPH_DAEMON_FEDERATION_DECOUPLED_GCN_H_
#define LDPGRAPH_DAEMON_FEDERATION_DECOUPLED_GCN_H_

#include <cstdint>
#include <vector>

#include "engine/matrix.h"
#include "federation/coupled_graph.h"

namespace ldpgraph {

// What one party sends in step 2: the scaled states of its border users.
struct BorderMessage {
  int from_party = 0;
  std::vector<std::uint32_t> users;  // global ids, increasing
  Matrix rows;                       // one per user
};

// Step 1's scaling: row v of `z` (the party's users' H W) over sqrt(1 + d_v).
Matrix ScaledStates(const PartyGraph& party, const Matrix& z);

// Step 2: the message a party sends, from its scaled states.
BorderMessage BorderStates(const PartyGraph& party, const Matrix& scaled);

// Step 3 without the bias: internal and border propagation. `received`
// holds the other parties' messages (the party's own, if there, is skipped). Errors: kFailedPrecondition naming the
// first border friend whose state no message carries, kInvalidArgument
// when `scaled` does not have a row per user or the widths differ.
Result<Matrix> PropagateLayer(const PartyGraph& party, const Matrix& scaled,
                              const std::vector<BorderMessage>& received);

// A whole GCN forward pass (no dropout), every party in this process: the
// parties' class scores for their users. `weights` and `biases` per layer,
// an activation (SELU, or ReLU) between layers, as NodeGnnModel's GCN.
Result<std::vector<Matrix>> DecoupledGcnForward(const std::vector<PartyGraph>& parties,
                                                const std::vector<Matrix>& features,
                                                const std::vector<const Matrix*>& weights,
                                                const std::vector<const Matrix*>& biases, bool selu);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_FEDERATION_DECOUPLED_GCN_H_
