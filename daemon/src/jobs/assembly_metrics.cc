#include "jobs/assembly_metrics.h"

namespace ldpgraph {

void CountAssembly(Metrics& metrics, const DatasetAssemblyStats& stats) {
  metrics.graphs_assembled.fetch_add(stats.graphs);
  metrics.assembled_users.fetch_add(stats.users);
  metrics.assembled_reporters.fetch_add(stats.reporters);
  metrics.assembled_edges.fetch_add(stats.edges);
}

}  // namespace ldpgraph
