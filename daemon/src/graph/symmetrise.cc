#include "graph/symmetrise.h"

#include <algorithm>
#include <iterator>

#include "util/named_values.h"

namespace ldpgraph {

constexpr NamedValue<Symmetrisation> kSymmetrisations[] = {
    {Symmetrisation::kNone, "none"}, {Symmetrisation::kOr, "or"}, {Symmetrisation::kAnd, "and"}};

const char* SymmetrisationName(Symmetrisation rule) { return NameIn(kSymmetrisations, rule); }

Result<Symmetrisation> ParseSymmetrisation(const std::string& name) {
  return ParseIn(kSymmetrisations, name, "symmetrisation");
}

CsrGraph Symmetrise(const CsrGraph& graph, Symmetrisation rule) {
  if (rule == Symmetrisation::kNone) return graph;
  const CsrGraph incoming = graph.Transposed();
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
