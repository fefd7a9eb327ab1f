#include "graph/symmetrise.h"

#include <algorithm>
#include <iterator>

namespace ldpgraph {
namespace {

// Column lists of `graph` (row v: the nodes that listed v), each sorted
// because rows are visited in order.
CsrGraph Transpose(const CsrGraph& graph) {
  const std::uint32_t n = graph.num_nodes();
  std::vector<std::uint64_t> counts(static_cast<std::size_t>(n) + 1, 0);
  for (std::uint32_t v : graph.targets()) ++counts[v + 1];
  for (std::uint32_t v = 0; v < n; ++v) counts[v + 1] += counts[v];
  std::vector<std::uint32_t> sources(graph.targets().size());
  std::vector<std::uint64_t> fill(counts.begin(), counts.end() - 1);
  for (std::uint32_t u = 0; u < n; ++u) {
    for (std::uint32_t v : graph.neighbours(u)) sources[fill[v]++] = u;
  }
  CsrGraph t;
  for (std::uint32_t v = 0; v < n; ++v) {
    t.AppendRow(Span<const std::uint32_t>(sources.data() + counts[v], counts[v + 1] - counts[v]));
  }
  return t;
}

}  // namespace

const char* SymmetrisationName(Symmetrisation rule) {
  switch (rule) {
    case Symmetrisation::kNone: return "none";
    case Symmetrisation::kOr: return "or";
    case Symmetrisation::kAnd: return "and";
  }
  return "?";
}

Result<Symmetrisation> ParseSymmetrisation(const std::string& name) {
  for (Symmetrisation rule : {Symmetrisation::kNone, Symmetrisation::kOr, Symmetrisation::kAnd}) {
    if (name == SymmetrisationName(rule)) return rule;
  }
  return Status::InvalidArgument("unknown symmetrisation '" + name + "' (none, or, and)");
}

CsrGraph Symmetrise(const CsrGraph& graph, Symmetrisation rule) {
  if (rule == Symmetrisation::kNone) return graph;
  const CsrGraph incoming = Transpose(graph);
  CsrGraph out;
  std::vector<std::uint32_t> row;
  for (std::uint32_t u = 0; u < graph.num_nodes(); ++u) {
    const auto listed = graph.neighbours(u);
    const auto listed_by = incoming.neighbours(u);
    row.clear();
    if (rule == Symmetrisation::kOr) {
      std::set_union(listed.begin(), listed.end(), listed_by.begin(), listed_by.end(), std::back_inserter(row));
    } else {
      std::set_intersection(listed.begin(), listed.end(), listed_by.begin(), listed_by.end(),
                            std::back_inserter(row));
    }
    out.AppendRow(row);
  }
  return out;
}

}  // namespace ldpgraph
