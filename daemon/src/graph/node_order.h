// Node orders that keep a neighbour sum's rows near each other in memory.
// A full-batch GNN reads, for every user, the rows of all her friends: at
// 10^6 users those rows come from far past the caches, and in the order the
// reports arrived (random) each costs a whole line from memory. Renumbering
// the users so that friends sit near each other makes those lines shared
// and cached. The order is applied once per assembled graph and undone for
// results (a model's weights do not depend on the order; its per-user
// answers are mapped back).
//   kRcm:    reverse Cuthill-McKee: breadth-first from a peripheral user of
//            each component, friends in increasing degree, reversed. Friends
//            land within a band of each other.
//   kDegree: by decreasing degree: the hubs, whose rows are read most, share
//            the first lines (degree sort; it keeps no neighbourhood).
#ifndef LDPGRAPH_DAEMON_GRAPH_NODE_ORDER_H_
#define LDPGRAPH_DAEMON_GRAPH_NODE_ORDER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "graph/csr_graph.h"
#include "ldpgraph/status.h"

namespace ldpgraph {

enum class NodeOrder { kAsGiven, kRcm, kDegree };
const char* NodeOrderName(NodeOrder order);  // "as-given", "rcm", "degree"
Result<NodeOrder> ParseNodeOrder(const std::string& name);

// A renumbering of n nodes: node old_of_new[i] moves to place i, and
// new_of_old is its inverse.
struct NodePermutation {
  std::vector<std::uint32_t> old_of_new, new_of_old;

  static NodePermutation FromOrder(std::vector<std::uint32_t> old_of_new);
  std::uint32_t size() const { return static_cast<std::uint32_t>(old_of_new.size()); }
};

// The order `order` makes of `graph`'s nodes (rows read as undirected
// neighbourhoods). O(nodes + entries log degree).
NodePermutation OrderNodes(const CsrGraph& graph, NodeOrder order);

// `graph` renumbered: row i is old row old_of_new[i] with its targets
// mapped and sorted. `weights` (one per entry, or null) follow their
// entries into `permuted_weights`.
CsrGraph PermuteGraph(const CsrGraph& graph, const NodePermutation& p, const std::vector<float>* weights = nullptr,
                      std::vector<float>* permuted_weights = nullptr);

// Each of `ids` (old numbers) by its new number, in the same order.
inline std::vector<std::uint32_t> RenumberIds(const std::vector<std::uint32_t>& ids, const NodePermutation& p) {
  std::vector<std::uint32_t> out(ids.size());
  for (std::size_t i = 0; i < ids.size(); ++i) out[i] = p.new_of_old[ids[i]];
  return out;
}

// values[old_of_new[i]] at i.
template <typename T>
std::vector<T> PermuteValues(const std::vector<T>& values, const NodePermutation& p) {
  std::vector<T> out(values.size());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = values[p.old_of_new[i]];
  return out;
}

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_GRAPH_NODE_ORDER_H_
