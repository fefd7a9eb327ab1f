// The audit study's charts: for each dataset, the attacks' AUC against
// epsilon next to the largest AUC each guarantee allows, one chart for the
// edge attacks and one for membership inference. The non-private systems
// are flat reference lines.
#ifndef LDPGRAPH_DAEMON_EXPERIMENTS_AUDIT_EXPERIMENT_CHART_H_
#define LDPGRAPH_DAEMON_EXPERIMENTS_AUDIT_EXPERIMENT_CHART_H_

#include <string>
#include <vector>

#include "experiments/summary.h"
#include "ldpgraph/status.h"

namespace ldpgraph {

// `summary` grouped by dataset, system, attack, epsilon, with the metrics
// auc (first) and bound among `metrics`. Writes
// OUT_DIR/edge_attacks__DATASET.svg and OUT_DIR/membership__DATASET.svg.
Status WriteAuditCharts(const std::string& out_dir, const std::vector<std::string>& metrics,
                        const std::vector<SummaryRow>& summary);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_EXPERIMENTS_AUDIT_EXPERIMENT_CHART_H_
