// The server's side of GW-LDP's graph summary encoder (sdk graph_summary.h):
// every graph's report is one grid cell, itself with probability p = e^eps /
// (e^eps + k - 1) and any other with q = 1 / (e^eps + k - 1). The server
// denoises the reports together:
//   - the prior over cells is estimated from all reports, unbiased and then
//     clipped at 0: pi_c = (share of reports in c - q) / (p - q);
//   - each graph becomes the posterior mean of the cell centres given its
//     report, sum_c pi_c Pr[r | c] centre_c / sum_c pi_c Pr[r | c]: a report
//     in a cell few graphs hold is pulled towards where graphs are.
// A graph's space for GW is then one node whose features are that point
// (column means, then size, in the grid's [0, 1] units): fused GW between two
// such spaces is the squared distance between their points, so the kernel
// SVM compares graphs by their denoised summaries.
#ifndef LDPGRAPH_DAEMON_GW_PRIVATE_SUMMARY_H_
#define LDPGRAPH_DAEMON_GW_PRIVATE_SUMMARY_H_

#include <vector>

#include <Eigen/Core>

#include "gw/graph_space.h"
#include "ldpgraph/graph_summary.h"

namespace ldpgraph {

// The prior over the encoder's cells from every graph's report. Errors:
// kInvalidArgument for no reports or a cell out of range (naming it).
Result<std::vector<double>> SummaryPrior(const GraphSummaryEncoder& encoder,
                                         const std::vector<std::uint32_t>& reports);

// Each report's posterior mean point (reports x (dims + 1)). Errors: as
// SummaryPrior's.
Result<Eigen::MatrixXd> DenoiseSummaries(const GraphSummaryEncoder& encoder,
                                         const std::vector<std::uint32_t>& reports);

// One node whose features are `point`.
GraphSpace SummarySpace(const Eigen::RowVectorXd& point);

// Every report's space: DenoiseSummaries, one SummarySpace per row (what
// `ldpgraph gw --encoder summary` compares). Errors: SummaryPrior's.
Result<std::vector<GraphSpace>> SummarySpaces(const GraphSummaryEncoder& encoder,
                                              const std::vector<std::uint32_t>& reports);

// A graph's exact summary point, unencoded (no LDP): its embeddings' column
// means in the range's [0, 1] units and its size on the grid's log scale,
// clamped to the range but not cut into bins.
Eigen::RowVectorXd ExactSummary(const GraphSummaryParams& params, const Eigen::MatrixXd& embeddings);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_GW_PRIVATE_SUMMARY_H_
