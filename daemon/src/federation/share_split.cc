#include "federation/share_split.h"

#include <set>

namespace ldpgraph {

Result<std::vector<HeldGraphParts>> SplitIntoShares(const HeldGraphParts& whole, const std::vector<int>& party_of,
                                                    const std::vector<std::string>& names) {
  if (party_of.size() != whole.num_nodes || whole.labels.size() != whole.num_nodes) {
    return Status::InvalidArgument("one party and one label per node are needed");
  }
  std::set<std::string> seen;
  for (const std::string& name : names) {
    if (!ValidPartyName(name)) return Status::InvalidArgument("party name \"" + name + "\" is not 1-64 of [a-z0-9_-]");
    if (!seen.insert(name).second) return Status::InvalidArgument("party \"" + name + "\" is named twice");
  }
  std::vector<HeldGraphParts> shares(names.size());
  std::vector<std::uint64_t> local(whole.num_nodes);
  for (std::uint64_t u = 0; u < whole.num_nodes; ++u) {
    const int p = party_of[u];
    if (p < 0 || static_cast<std::size_t>(p) >= names.size()) {
      return Status::InvalidArgument("node " + std::to_string(u) + "'s party " + std::to_string(p) + " is out of range");
    }
    HeldGraphParts& s = shares[static_cast<std::size_t>(p)];
    local[u] = s.num_nodes++;
    s.keys.push_back(u);
    s.labels.push_back(whole.labels[u]);
  }
  for (std::size_t p = 0; p < shares.size(); ++p) {
    if (shares[p].num_nodes == 0) return Status::InvalidArgument("party \"" + names[p] + "\" has no users");
    shares[p].id = whole.id;
    shares[p].classes = whole.classes;
    shares[p].feature_dims = whole.feature_dims;
  }
  for (const auto& [u, v] : whole.edges) {
    if (u >= whole.num_nodes || v >= whole.num_nodes) return Status::InvalidArgument("an edge names a node out of range");
    const int pu = party_of[u], pv = party_of[v];
    if (pu == pv) {
      shares[static_cast<std::size_t>(pu)].edges.emplace_back(local[u], local[v]);
    } else {  // both ends hold the friendship
      shares[static_cast<std::size_t>(pu)].border.push_back({local[u], names[static_cast<std::size_t>(pv)], v});
      shares[static_cast<std::size_t>(pv)].border.push_back({local[v], names[static_cast<std::size_t>(pu)], u});
    }
  }
  for (const HeldGraphParts::Entry& e : whole.features) {
    if (e.node >= whole.num_nodes) return Status::InvalidArgument("a feature entry names a node out of range");
    shares[static_cast<std::size_t>(party_of[e.node])].features.push_back({local[e.node], e.feature, e.value});
  }
  return shares;
}

}  // namespace ldpgraph
