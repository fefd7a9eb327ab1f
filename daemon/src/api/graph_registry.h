// GraphRegistry: the graphs the daemon serves, read on every report, written
// only when an admin creates one. Loaded from the store at start; the store
// stays the source of truth. Each graph carries what its policy expects of a
// report, derived once here instead of per report.
#ifndef LDPGRAPH_DAEMON_API_GRAPH_REGISTRY_H_
#define LDPGRAPH_DAEMON_API_GRAPH_REGISTRY_H_

#include <map>
#include <memory>
#include <shared_mutex>
#include <vector>

#include "api/policy_check.h"
#include "ldpgraph/graph_config.h"
#include "store/report_store.h"

namespace ldpgraph {

struct RegisteredGraph {
  GraphConfig config;
  PolicyExpectation expected;
};

class GraphRegistry {
 public:
  explicit GraphRegistry(ReportStore* store) : store_(store) {}

  // Errors: kDataLoss for a stored config that no longer parses or builds.
  Status Load();
  // Stores, then serves. Errors: kInvalidArgument when the policy's
  // mechanisms cannot be built, kFailedPrecondition if the id exists,
  // kUnavailable when the store fails.
  Status Create(const GraphConfig& config);
  // nullptr when unknown.
  std::shared_ptr<const RegisteredGraph> Find(std::uint64_t graph_id) const;
  std::vector<std::shared_ptr<const RegisteredGraph>> All() const;

 private:
  ReportStore* store_;
  mutable std::shared_mutex mu_;
  std::map<std::uint64_t, std::shared_ptr<const RegisteredGraph>> graphs_;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_API_GRAPH_REGISTRY_H_
