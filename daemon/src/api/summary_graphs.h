// The summary graphs of GW-LDP on the daemon: embedding graphs whose owner
// sent one cell of a public grid (EmbeddingEncoding::kSummary,
// sdk graph_summary.h) instead of her embeddings' rows. One report tells
// little alone: the server denoises every report of the same grid together
// (gw/private_summary.h: the prior over cells from all of them), so a
// graph's point depends on the others that have reported, as it does in
// `ldpgraph gw --encoder summary`.
#ifndef LDPGRAPH_DAEMON_API_SUMMARY_GRAPHS_H_
#define LDPGRAPH_DAEMON_API_SUMMARY_GRAPHS_H_

#include <cstdint>
#include <vector>

#include <Eigen/Core>

#include "api/service_context.h"

namespace ldpgraph {

// Whether two summary graphs share a grid (so their reports are denoised together).
bool SameSummaryGrid(const EmbeddingPolicy& a, const EmbeddingPolicy& b);

// The graphs of `grid` that have reported, in increasing id, and each one's
// denoised point (rows in the same order: pooled embedding, then size, in
// the grid's [0, 1] units).
struct SummaryPoints {
  std::vector<std::uint64_t> ids;
  Eigen::MatrixXd points;
  // The row of `id`, or -1 when it has not reported.
  Eigen::Index RowOf(std::uint64_t id) const;
};

// Reads every report of the graphs of `grid`. Errors: the store's
// (kUnavailable), kInternal for a stored report that no longer decodes.
Result<SummaryPoints> LoadSummaryPoints(ServiceContext& ctx, const EmbeddingPolicy& grid);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_API_SUMMARY_GRAPHS_H_
