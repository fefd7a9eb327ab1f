#include "store/graph_store.h"

#include "store/report_store.h"

namespace ldpgraph {

Result<std::optional<RoundState>> GraphStore::RoundStateOf(std::uint64_t graph_id) {
  Result<std::map<std::uint64_t, RoundState>> rounds = Rounds();
  if (!rounds.ok()) return rounds.status();
  auto it = rounds->find(graph_id);
  if (it == rounds->end()) return std::optional<RoundState>();
  return std::optional<RoundState>(it->second);
}

Status CheckRoundOpening(std::uint64_t graph_id, const RoundState& state, std::uint32_t open) {
  if (state.current != open) {
    return Status::FailedPrecondition("round " + std::to_string(open) + " of graph " + std::to_string(graph_id) +
                                      " is not the open round: round " + std::to_string(state.current) +
                                      " is (another admin or daemon opened it)");
  }
  if (open >= kNewestRound - 1) {
    return Status::OutOfRange("graph " + std::to_string(graph_id) + " has used every round number");
  }
  return Status::Ok();
}

Status CheckRoundKept(std::uint64_t graph_id, const std::optional<RoundState>& state, std::uint32_t round) {
  if (!state || round == kNewestRound || round >= state->OldestKept()) return Status::Ok();
  return Status::FailedPrecondition("round " + std::to_string(round) + " of graph " + std::to_string(graph_id) +
                                    " is no longer kept: the store keeps rounds " +
                                    std::to_string(state->OldestKept()) + " to " + std::to_string(state->current) +
                                    " (its schedule's history)");
}

}  // namespace ldpgraph
