#include "federation/fedcog_party.h"

#include <string>
#include <utility>

namespace ldpgraph {

FedCogParty::FedCogParty(PartyShare share, PartyTask task) : share_(std::move(share)), task_(std::move(task)) {
  states_ = share_.features;
}

Result<std::vector<BorderMessage>> FedCogParty::Send(int step) {
  if (step == sending_ && step > steps_done_) return sent_;  // a retry
  if (step != steps_done_ + 1) {
    return Status::FailedPrecondition("propagation step " + std::to_string(step) + " asked for after step " +
                                      std::to_string(steps_done_));
  }
  scaled_ = ScaledStates(share_.graph, states_);
  sent_ = BorderMessages(share_.graph, scaled_);
  sending_ = step;
  return sent_;
}

Status FedCogParty::Receive(int step, const std::vector<BorderMessage>& received) {
  if (step == steps_done_ && step > 0) return Status::Ok();  // a retry
  if (step != sending_ || step != steps_done_ + 1) {
    return Status::FailedPrecondition("propagation step " + std::to_string(step) + " completed before its messages " +
                                      "were asked for (last completed: " + std::to_string(steps_done_) + ")");
  }
  Result<Matrix> next = PropagateLayer(share_.graph, scaled_, received);
  if (!next.ok()) return next.status();
  states_ = std::move(next).value();
  steps_done_ = step;
  scaled_ = Matrix();
  sent_.clear();
  return Status::Ok();
}

Result<PartyRound> FedCogParty::Round(const std::vector<Matrix>& weights, bool gradient) const {
  return PartyRoundAt(states_, task_, weights, gradient);
}

}  // namespace ldpgraph
