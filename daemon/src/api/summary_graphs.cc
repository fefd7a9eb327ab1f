#include "api/summary_graphs.h"

#include <algorithm>

#include "gw/private_summary.h"
#include "ldpgraph/wire_format.h"

namespace ldpgraph {

bool SameSummaryGrid(const EmbeddingPolicy& a, const EmbeddingPolicy& b) {
  return a.encoding == EmbeddingEncoding::kSummary && b.encoding == EmbeddingEncoding::kSummary &&
         a.dims == b.dims && a.epsilon == b.epsilon && a.value_bins == b.value_bins && a.size_bins == b.size_bins &&
         a.min_nodes == b.min_nodes && a.max_nodes == b.max_nodes;
}

Eigen::Index SummaryPoints::RowOf(std::uint64_t id) const {
  auto it = std::lower_bound(ids.begin(), ids.end(), id);
  return it != ids.end() && *it == id ? static_cast<Eigen::Index>(it - ids.begin()) : -1;
}

Result<SummaryPoints> LoadSummaryPoints(ServiceContext& ctx, const EmbeddingPolicy& grid) {
  Result<GraphSummaryEncoder> encoder = GraphSummaryEncoder::Create(grid.SummaryParams());
  if (!encoder.ok()) return Status::Internal("a summary graph's grid: " + encoder.status().message());
  std::vector<std::uint64_t> members;
  for (const auto& graph : ctx.graphs.All()) {
    if (graph->config.embedding.enabled && SameSummaryGrid(graph->config.embedding, grid)) {
      members.push_back(graph->config.graph_id);
    }
  }
  std::sort(members.begin(), members.end());
  SummaryPoints out;
  std::vector<std::uint32_t> cells;
  for (std::uint64_t id : members) {
    std::vector<std::uint8_t> bytes;
    Status read = ctx.store->ForEachReport(id, [&](const ReportRecord& r) { bytes = r.bytes; });
    if (!read.ok()) return Status::Unavailable(read.message());
    if (bytes.empty()) continue;  // not reported yet
    Result<Report> report = DecodeReport(bytes.data(), bytes.size());
    // Stored only after these very checks: the store is damaged.
    if (!report.ok() || !report->has_summary) {
      return Status::Internal("graph " + std::to_string(id) + "'s stored report is no summary report");
    }
    out.ids.push_back(id);
    cells.push_back(report->summary.cell);
  }
  if (cells.empty()) {
    out.points.resize(0, grid.dims + 1);
    return out;
  }
  Result<Eigen::MatrixXd> points = DenoiseSummaries(*encoder, cells);
  if (!points.ok()) return Status::Internal("denoising the summaries: " + points.status().message());
  out.points = std::move(points).value();
  return out;
}

}  // namespace ldpgraph
