#include "graph/csr_graph.h"

#include <algorithm>

namespace ldpgraph {

CsrGraph CsrGraph::FromUndirectedEdges(
    std::uint32_t num_nodes, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& edges) {
  // Counting sort by source: linear in nodes plus edges.
  std::vector<std::uint64_t> offsets(static_cast<std::size_t>(num_nodes) + 1, 0);
  for (const auto& [u, v] : edges) {
    if (u == v) continue;
    ++offsets[u + 1];
    ++offsets[v + 1];
  }
  for (std::uint32_t i = 0; i < num_nodes; ++i) offsets[i + 1] += offsets[i];
  std::vector<std::uint32_t> targets(offsets.back());
  std::vector<std::uint64_t> fill(offsets.begin(), offsets.end() - 1);
  for (const auto& [u, v] : edges) {
    if (u == v) continue;
    targets[fill[u]++] = v;
    targets[fill[v]++] = u;
  }
  CsrGraph g;
  g.offsets_.assign(1, 0);
  g.targets_.reserve(targets.size());
  for (std::uint32_t i = 0; i < num_nodes; ++i) {
    auto begin = targets.begin() + static_cast<std::ptrdiff_t>(offsets[i]);
    auto end = targets.begin() + static_cast<std::ptrdiff_t>(offsets[i + 1]);
    std::sort(begin, end);
    end = std::unique(begin, end);
    g.targets_.insert(g.targets_.end(), begin, end);
    g.offsets_.push_back(g.targets_.size());
  }
  return g;
}

CsrGraph CsrGraph::FromCsr(std::vector<std::uint64_t> offsets, std::vector<std::uint32_t> targets) {
  CsrGraph g;
  g.offsets_ = std::move(offsets);
  g.targets_ = std::move(targets);
  return g;
}

CsrGraph CsrGraph::FromRows(const std::vector<std::vector<std::uint32_t>>& rows) {
  CsrGraph g;
  std::size_t total = 0;
  for (const auto& r : rows) total += r.size();
  g.targets_.reserve(total);
  g.offsets_.reserve(rows.size() + 1);
  for (const auto& r : rows) g.AppendRow(r);
  return g;
}

void CsrGraph::AppendRow(Span<const std::uint32_t> row) {
  targets_.insert(targets_.end(), row.begin(), row.end());
  offsets_.push_back(targets_.size());
}

CsrGraph CsrGraph::Transposed() const {
  const std::uint32_t n = num_nodes();
  std::vector<std::uint64_t> counts(static_cast<std::size_t>(n) + 1, 0);
  for (std::uint32_t v : targets_) ++counts[v + 1];
  for (std::uint32_t v = 0; v < n; ++v) counts[v + 1] += counts[v];
  CsrGraph t;
  t.targets_.resize(targets_.size());
  std::vector<std::uint64_t> fill(counts.begin(), counts.end() - 1);
  for (std::uint32_t u = 0; u < n; ++u) {  // rows in order: each column list comes out sorted
    for (std::uint32_t v : neighbours(u)) t.targets_[fill[v]++] = u;
  }
  t.offsets_ = std::move(counts);
  return t;
}

}  // namespace ldpgraph
