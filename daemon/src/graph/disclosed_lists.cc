#include "graph/disclosed_lists.h"

#include <algorithm>
#include <cassert>
#include <iterator>

namespace ldpgraph {

CsrGraph UseDisclosedLists(const CsrGraph& graph, const std::vector<bool>& disclosed) {
  assert(disclosed.size() == graph.num_nodes());
  if (std::find(disclosed.begin(), disclosed.end(), true) == disclosed.end()) return graph;
  const CsrGraph listed_by = graph.Transposed();
  CsrGraph out;
  std::vector<std::uint32_t> kept, named_by, row;
  for (std::uint32_t u = 0; u < graph.num_nodes(); ++u) {
    if (disclosed[u]) {
      out.AppendRow(graph.neighbours(u));
      continue;
    }
    // u's own entries about private users, and the disclosed users whose
    // lists name u: disjoint sorted sets.
    kept.clear();
    named_by.clear();
    for (std::uint32_t v : graph.neighbours(u)) {
      if (!disclosed[v]) kept.push_back(v);
    }
    for (std::uint32_t v : listed_by.neighbours(u)) {
      if (disclosed[v]) named_by.push_back(v);
    }
    row.clear();
    std::merge(kept.begin(), kept.end(), named_by.begin(), named_by.end(), std::back_inserter(row));
    out.AppendRow(row);
  }
  return out;
}

}  // namespace ldpgraph
