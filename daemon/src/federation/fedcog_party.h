// One party's side of a FedCog-SGC run, whatever carries its messages:
// propagation one step at a time (send partial sums, receive those for its
// users, propagate), then training rounds answered at the weights it is
// sent. Steps are idempotent for the coordinator's retries: asking again
// for the step just sent, or completing the step just completed, repeats
// the same answer and changes nothing.
// Thread-safety: none; the daemon holds one per run behind a mutex.
#ifndef LDPGRAPH_DAEMON_FEDERATION_FEDCOG_PARTY_H_
#define LDPGRAPH_DAEMON_FEDERATION_FEDCOG_PARTY_H_

#include <vector>

#include "federation/decoupled_gcn.h"
#include "federation/federated_sgc.h"
#include "federation/party_share.h"

namespace ldpgraph {

class FedCogParty {
 public:
  FedCogParty(PartyShare share, PartyTask task);

  int steps_done() const { return steps_done_; }
  const PartyShare& share() const { return share_; }
  const PartyTask& task() const { return task_; }

  // Step `step`'s messages, from the states after step - 1. Errors:
  // kFailedPrecondition unless step is steps_done() + 1 (or steps_done(),
  // whose messages it keeps to send again).
  Result<std::vector<BorderMessage>> Send(int step);
  // Completes step `step` with the messages for this party. A repeat of
  // the last completed step is accepted and ignored. Errors:
  // kFailedPrecondition when the step's messages were not asked for first;
  // PropagateLayer's.
  Status Receive(int step, const std::vector<BorderMessage>& received);

  // A training round at `weights` on the propagated features.
  Result<PartyRound> Round(const std::vector<Matrix>& weights, bool gradient) const;
  Matrix Scores(const std::vector<Matrix>& weights) const { return SgcScores(states_, weights); }

 private:
  PartyShare share_;
  PartyTask task_;
  Matrix states_;  // after steps_done_ steps
  Matrix scaled_;  // of the step being exchanged
  std::vector<BorderMessage> sent_;
  int steps_done_ = 0;
  int sending_ = 0;  // the step whose messages were last asked for
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_FEDERATION_FEDCOG_PARTY_H_
