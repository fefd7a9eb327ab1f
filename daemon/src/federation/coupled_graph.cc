#include "federation/coupled_graph.h"

#include <string>

namespace ldpgraph {

Result<std::vector<PartyGraph>> DecoupleGraph(const CsrGraph& graph, const std::vector<int>& party_of, int parties) {
  const std::uint32_t n = graph.num_nodes();
  if (parties < 1) return Status::InvalidArgument("at least one party is needed");
  if (party_of.size() != n) {
    return Status::InvalidArgument("one party per user is needed: " + std::to_string(party_of.size()) + " for " +
                                   std::to_string(n) + " users");
  }
  std::vector<PartyGraph> out(static_cast<std::size_t>(parties));
  std::vector<std::uint32_t> local(n);
  for (std::uint32_t u = 0; u < n; ++u) {
    const int p = party_of[u];
    if (p < 0 || p >= parties) {
      return Status::InvalidArgument("user " + std::to_string(u) + "'s party " + std::to_string(p) + " is not in [0, " +
                                     std::to_string(parties) + ")");
    }
    local[u] = out[static_cast<std::size_t>(p)].num_users();
    out[static_cast<std::size_t>(p)].users.push_back(u);
  }
  for (int p = 0; p < parties; ++p) {
    PartyGraph& g = out[static_cast<std::size_t>(p)];
    if (g.users.empty()) return Status::InvalidArgument("party " + std::to_string(p) + " has no users");
    g.party = p;
    std::vector<std::vector<std::uint32_t>> rows(g.users.size());
    g.border_offsets.assign(1, 0);
    for (std::uint32_t i = 0; i < g.num_users(); ++i) {
      const std::uint32_t u = g.users[i];
      for (std::uint32_t v : graph.neighbours(u)) {
        if (party_of[v] == p) {
          rows[i].push_back(local[v]);  // increasing: local ids follow global order
        } else {
          g.border_targets.push_back(v);
          g.border_party.push_back(party_of[v]);
        }
      }
      g.border_offsets.push_back(g.border_targets.size());
      g.degree.push_back(graph.degree(u));
    }
    g.internal = CsrGraph::FromRows(rows);
  }
  return out;
}

}  // namespace ldpgraph
