// GraphRegistry: the graphs the daemon serves, read on every report, written
// only when an admin creates one. Loaded from the store at start; the store
// stays the source of truth. Each graph carries what its policy expects of a
// report, derived once here instead of per report. With a shared store
// another daemon may create a graph: an id this daemon does not know sends
// it back to the store (at most ten times a second, so that a flood of
// unknown ids costs the database little), and so do every listing and a
// creation the store refuses because the id exists.
#ifndef LDPGRAPH_DAEMON_API_GRAPH_REGISTRY_H_
#define LDPGRAPH_DAEMON_API_GRAPH_REGISTRY_H_

#include <chrono>
#include <map>
#include <memory>
#include <shared_mutex>
#include <vector>

#include "api/policy_check.h"
#include "api/round_schedule.h"
#include "ldpgraph/graph_config.h"
#include "store/graph_store.h"

namespace ldpgraph {

struct RegisteredGraph {
  GraphConfig config;
  PolicyExpectation expected;
  RoundSchedule rounds;  // disabled: collected once
};

// The graph's policy as the admin API shows it and the store keeps it: its
// configuration, with "rounds" when it is collected in rounds.
std::string GraphPolicyJson(const GraphConfig& config, const RoundSchedule& rounds);

class GraphRegistry {
 public:
  explicit GraphRegistry(GraphStore* store) : store_(store) {}

  // Errors: kDataLoss for a stored config that no longer parses or builds.
  Status Load();
  // Stores, then serves. Errors: kInvalidArgument when the policy's
  // mechanisms cannot be built, kFailedPrecondition if the id exists,
  // kUnavailable when the store fails.
  Status Create(const GraphConfig& config, const RoundSchedule& rounds = {});
  // nullptr when unknown, here and in the store.
  std::shared_ptr<const RegisteredGraph> Find(std::uint64_t graph_id) const;
  std::vector<std::shared_ptr<const RegisteredGraph>> All() const;
  // The graphs this daemon knows now, without asking the store (what a
  // periodic task reads between its refreshes by All()).
  std::vector<std::shared_ptr<const RegisteredGraph>> Known() const;

 private:
  // Reads the store's graphs into the map (a graph is never changed once
  // created: known ones are kept). `unless_recent`: not when the last read
  // was under 100 ms ago.
  Status Refresh(bool unless_recent) const;
  std::shared_ptr<const RegisteredGraph> Find(std::uint64_t graph_id, bool ask_store) const;

  GraphStore* store_;
  mutable std::shared_mutex mu_;
  mutable std::map<std::uint64_t, std::shared_ptr<const RegisteredGraph>> graphs_;
  mutable std::mutex refresh_mu_;
  mutable std::chrono::steady_clock::time_point last_refresh_{};
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_API_GRAPH_REGISTRY_H_
