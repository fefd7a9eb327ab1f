// CsrGraph: one graph in compressed sparse row form, the server's only
// adjacency type (datasets, noisy graphs, assembly, the GNN engine).
// Rows are sorted and free of duplicates; a row may list j without j listing
// i (noisy graphs are directed: rows as the users reported them).
// Thread-safety: a value; const access is safe from many threads.
#ifndef LDPGRAPH_DAEMON_GRAPH_CSR_GRAPH_H_
#define LDPGRAPH_DAEMON_GRAPH_CSR_GRAPH_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "ldpgraph/span.h"

namespace ldpgraph {

class CsrGraph {
 public:
  CsrGraph() : offsets_{0} {}

  // An undirected graph on `num_nodes` nodes from edge pairs in any order:
  // both directions are stored, self-loops and repeats are dropped.
  static CsrGraph FromUndirectedEdges(std::uint32_t num_nodes,
                                      const std::vector<std::pair<std::uint32_t, std::uint32_t>>& edges);
  // From CSR arrays: offsets (num_nodes + 1, starting at 0, non-decreasing,
  // ending at targets.size()) and rows sorted and unique; taken, not copied.
  static CsrGraph FromCsr(std::vector<std::uint64_t> offsets, std::vector<std::uint32_t> targets);
  // A directed graph from one row per node; rows must be sorted and unique.
  static CsrGraph FromRows(const std::vector<std::vector<std::uint32_t>>& rows);

  std::uint32_t num_nodes() const { return static_cast<std::uint32_t>(offsets_.size() - 1); }
  // Row entries (directed); for an undirected graph twice the edge count.
  std::uint64_t num_entries() const { return targets_.size(); }
  std::uint32_t degree(std::uint32_t i) const {
    return static_cast<std::uint32_t>(offsets_[i + 1] - offsets_[i]);
  }
  Span<const std::uint32_t> neighbours(std::uint32_t i) const {
    return {targets_.data() + offsets_[i], degree(i)};
  }
  const std::vector<std::uint64_t>& offsets() const { return offsets_; }
  const std::vector<std::uint32_t>& targets() const { return targets_; }

  // Moves the arrays out (to a caller that hands them on without a copy,
  // as the Python package does to numpy), leaving an empty graph.
  void Release(std::vector<std::uint64_t>* offsets, std::vector<std::uint32_t>* targets) {
    *offsets = std::move(offsets_);
    *targets = std::move(targets_);
    offsets_ = {0};
    targets_.clear();
  }

  // Room for `nodes` rows and `entries` entries in all, so that appending
  // rows up to them moves nothing.
  void Reserve(std::uint32_t nodes, std::uint64_t entries) {
    offsets_.reserve(static_cast<std::size_t>(nodes) + 1);
    targets_.reserve(entries);
  }
  // Appends a row; `row` must be sorted and unique.
  void AppendRow(Span<const std::uint32_t> row);
  // Row v of the transpose lists the nodes whose rows list v (sorted), in
  // O(nodes + entries).
  CsrGraph Transposed() const;

 private:
  std::vector<std::uint64_t> offsets_;  // num_nodes + 1
  std::vector<std::uint32_t> targets_;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_GRAPH_CSR_GRAPH_H_
