#include "federation/lnnc.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace ldpgraph {

std::size_t ConnectLoneBorderUsers(const Matrix& features, PartyGraph* party) {
  const std::uint32_t n = party->num_users();
  if (n < 2) return 0;
  std::vector<std::uint32_t> lone;
  for (std::uint32_t u = 0; u < n; ++u) {
    const bool has_border = party->border_offsets[u + 1] > party->border_offsets[u];
    if (has_border && party->internal.degree(u) == 0) lone.push_back(u);
  }
  if (lone.empty()) return 0;
  // Angular distance is monotone in cosine similarity: compare unit rows.
  Matrix unit = features;
  for (Eigen::Index r = 0; r < unit.rows(); ++r) {
    const float norm = unit.row(r).norm();
    if (norm > 0) unit.row(r) /= norm;
  }
  std::vector<std::vector<std::uint32_t>> rows(n);
  for (std::uint32_t u = 0; u < n; ++u) {
    const auto friends = party->internal.neighbours(u);
    rows[u].assign(friends.begin(), friends.end());
  }
  std::size_t added = 0;
  for (std::uint32_t u : lone) {
    if (!rows[u].empty()) continue;  // an earlier lone user already chose her
    const Eigen::VectorXf similarity = unit * unit.row(u).transpose();
    std::uint32_t best = u == 0 ? 1 : 0;
    for (std::uint32_t v = 0; v < n; ++v) {
      if (v != u && similarity[v] > similarity[best]) best = v;
    }
    rows[u].push_back(best);
    rows[best].insert(std::lower_bound(rows[best].begin(), rows[best].end(), u), u);
    ++party->degree[u];
    ++party->degree[best];
    ++added;
  }
  party->internal = CsrGraph::FromRows(rows);
  return added;
}

}  // namespace ldpgraph
