// What a FedCog run leaves at each party: the shared SGC weights and the
// predictions for the party's own users (their propagated features mix in
// other parties' states, so only the run could compute them). One file per
// run, written whole and atomically (temp file, fsync, rename) once the
// coordinator says the run is over: a party holds the run's model or none,
// never part of one.
//   "LGFEDMDL" | u32 version = 1 | u32 metadata length | metadata (JSON:
//   run, party, coordinator, parties, held_graph, steps, lnnc,
//   best_round, val_accuracy, test_accuracy; coordinator is absent from
//   files written before it was recorded) | the weights (federation_wire.h's
//   matrices) | u32 users, each u32 key | the users' class probabilities
//   (matrices, one) | u32 CRC-32 of all before.
#ifndef LDPGRAPH_DAEMON_FEDERATION_FEDERATED_MODEL_H_
#define LDPGRAPH_DAEMON_FEDERATION_FEDERATED_MODEL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "engine/matrix.h"
#include "ldpgraph/status.h"

namespace ldpgraph {

struct FederatedModel {
  std::string run, party;
  // The party that drove the run: the only one that may discard the model.
  std::string coordinator;
  std::vector<std::string> parties;
  std::uint64_t held_graph = 0;
  int steps = 0;
  bool lnnc = false;
  int best_round = 0;
  double val_accuracy = 0, test_accuracy = 0;  // over every party's users
  std::vector<Matrix> weights;                 // {W, b}
  std::vector<std::uint32_t> keys;             // the party's users
  Matrix probabilities;                        // one row per key

  // The summary JSON (no weights or predictions).
  std::string Summary() const;
};

std::vector<std::uint8_t> EncodeFederatedModel(const FederatedModel& model);
// Errors: kDataLoss for a wrong magic, version or checksum, or a body
// that does not parse.
Result<FederatedModel> DecodeFederatedModel(const std::vector<std::uint8_t>& bytes);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_FEDERATION_FEDERATED_MODEL_H_
