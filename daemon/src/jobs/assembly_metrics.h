// What assembling graphs adds to /metrics, whoever assembles them (a
// training job, a prediction).
#ifndef LDPGRAPH_DAEMON_JOBS_ASSEMBLY_METRICS_H_
#define LDPGRAPH_DAEMON_JOBS_ASSEMBLY_METRICS_H_

#include "assembly/dataset_assembly.h"
#include "net/metrics.h"

namespace ldpgraph {

// Adds assembled graphs to the /metrics totals.
void CountAssembly(Metrics& metrics, const DatasetAssemblyStats& stats);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_JOBS_ASSEMBLY_METRICS_H_
