// GraphStore: the graphs a daemon collects, as created (their public
// configuration), with what an admin sets on them (a whole graph's label,
// its symmetrisation) and, for a graph collected in rounds, its open round.
// One of the four interfaces a store backend implements (store.h).
#ifndef LDPGRAPH_DAEMON_STORE_GRAPH_STORE_H_
#define LDPGRAPH_DAEMON_STORE_GRAPH_STORE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ldpgraph/status.h"

namespace ldpgraph {

struct StoredGraph {
  std::uint64_t graph_id = 0;
  std::string config_json;  // the public configuration, as created
  std::int64_t created_unix = 0;
  // A graph collected in rounds: how many closed rounds of reports the
  // store keeps for retraining besides the open one (round 1 opens with
  // the graph). 0: collected once.
  std::uint32_t history_rounds = 0;
};

// A graph collected in rounds, as the store holds it.
struct RoundState {
  std::uint32_t current = 1;  // the open round
  std::int64_t opened_unix = 0;
  std::uint32_t history = 1;  // closed rounds kept besides the open one
  // The oldest round whose graph can still be assembled: each user's newest
  // report up to it is kept (older ones give way when a round opens).
  std::uint32_t OldestKept() const { return current > history ? current - history : 1; }
};

// OpenRound's check that `open` is still the open round of `state`, and
// that a round after it can be numbered. Errors: kFailedPrecondition,
// kOutOfRange, as OpenRound's.
Status CheckRoundOpening(std::uint64_t graph_id, const RoundState& state, std::uint32_t open);

// ForEachReport's check that round `round` of a graph whose round state is
// `state` (nullopt: collected once) can be assembled. Errors: kFailedPrecondition.
Status CheckRoundKept(std::uint64_t graph_id, const std::optional<RoundState>& state, std::uint32_t round);

class GraphStore {
 public:
  virtual ~GraphStore() = default;

  // Errors: kFailedPrecondition when the id exists, kUnavailable on I/O.
  virtual Status CreateGraph(const StoredGraph& graph) = 0;
  // The graphs collected in rounds. Errors: kUnavailable.
  virtual Result<std::map<std::uint64_t, RoundState>> Rounds() = 0;
  // One graph's; nullopt for a graph collected once. Errors: kUnavailable.
  Result<std::optional<RoundState>> RoundStateOf(std::uint64_t graph_id);
  // Opens round `open + 1` of a graph collected in rounds whose open round
  // is `open`, and lets go of the reports no round from OldestKept() on
  // needs, in one transaction. Errors: kFailedPrecondition for a graph not
  // collected in rounds, or whose open round is no longer `open` (another
  // admin or daemon opened the next one: the message names the open
  // round); kOutOfRange past round 2^32 - 2; kUnavailable.
  virtual Result<RoundState> OpenRound(std::uint64_t graph_id, std::uint32_t open) = 0;
  virtual Result<std::vector<StoredGraph>> ListGraphs() = 0;
  // Graph classification: the class of a whole graph, set by an admin (a
  // second call replaces it). Errors: kFailedPrecondition for an unknown graph.
  virtual Status SetGraphLabel(std::uint64_t graph_id, std::uint32_t label) = 0;
  virtual Result<std::map<std::uint64_t, std::uint32_t>> GraphLabels() = 0;
  // A graph's symmetrisation policy ("none", "or", "and"; checked by the
  // caller), set by an admin. Errors: kFailedPrecondition for an unknown graph.
  virtual Status SetGraphSymmetrisation(std::uint64_t graph_id, const std::string& rule) = 0;
  virtual Result<std::map<std::uint64_t, std::string>> GraphSymmetrisations() = 0;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_STORE_GRAPH_STORE_H_
