// What each party of an in-process FedCog run starts from: its users'
// feature rows in its local order, and its training task (their labels and
// which of them train, validate and test). `ldpgraph experiment fedcog` and
// the Python package's fedcog_sgc build their parties with it.
#ifndef LDPGRAPH_DAEMON_FEDERATION_PARTY_INPUTS_H_
#define LDPGRAPH_DAEMON_FEDERATION_PARTY_INPUTS_H_

#include <vector>

#include "engine/matrix.h"
#include "federation/coupled_graph.h"
#include "federation/federated_sgc.h"
#include "train/splits.h"

namespace ldpgraph {

struct PartyInputs {
  std::vector<Matrix> features;  // per party: num_users x dims
  std::vector<PartyTask> tasks;
};

// `features` and `labels`: one row and label per user of the whole graph;
// `roles`: who trains, validates and tests (the rest are unlabelled users).
PartyInputs MakePartyInputs(const std::vector<PartyGraph>& parties, const Matrix& features,
                            const std::vector<int>& labels, const Split& roles);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_FEDERATION_PARTY_INPUTS_H_
