// GraphRegistry: the graphs the daemon serves, read on every report, written
// only when an admin creates one. Loaded from the store at start; the store
// stays the source of truth.
#ifndef LDPGRAPH_DAEMON_SERVICE_GRAPH_REGISTRY_H_
#define LDPGRAPH_DAEMON_SERVICE_GRAPH_REGISTRY_H_

#include <map>
#include <memory>
#include <shared_mutex>
#include <vector>

#include "ldpgraph/graph_config.h"
#include "store/report_store.h"

namespace ldpgraph {

class GraphRegistry {
 public:
  explicit GraphRegistry(ReportStore* store) : store_(store) {}

  // Errors: kDataLoss for a stored config that no longer parses.
  Status Load();
  // Stores, then serves. Errors: kFailedPrecondition if the id exists,
  // kUnavailable when the store fails.
  Status Create(const GraphConfig& config);
  // nullptr when unknown.
  std::shared_ptr<const GraphConfig> Find(std::uint64_t graph_id) const;
  std::vector<std::shared_ptr<const GraphConfig>> All() const;

 private:
  ReportStore* store_;
  mutable std::shared_mutex mu_;
  std::map<std::uint64_t, std::shared_ptr<const GraphConfig>> graphs_;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_SERVICE_GRAPH_REGISTRY_H_
