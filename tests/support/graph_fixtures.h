// Small graph-classification datasets for tests: paths (class 0) and stars
// (class 1) of 5 to 8 nodes, which GW and a GNN both tell apart by their
// structure alone.
#ifndef LDPGRAPH_TESTS_SUPPORT_GRAPH_FIXTURES_H_
#define LDPGRAPH_TESTS_SUPPORT_GRAPH_FIXTURES_H_

#include <algorithm>
#include <vector>

#include "dataset/graph_dataset.h"

namespace ldpgraph {
namespace testing {

// Graph k has 5 + k % 4 nodes, a path when k is even, a star otherwise.
// `tagged`: node 0 carries tag 7 and the others tag 3 (node features for
// fused GW); untagged datasets have no node tags.
inline GraphDataset PathsAndStars(int graphs, bool tagged = false) {
  GraphDataset ds;
  for (int k = 0; k < graphs; ++k) {
    const std::uint32_t n = 5 + static_cast<std::uint32_t>(k % 4);
    std::vector<std::vector<std::uint32_t>> rows(n);
    for (std::uint32_t u = 1; u < n; ++u) {
      const std::uint32_t v = k % 2 == 0 ? u - 1 : 0;  // path or star
      rows[u].push_back(v);
      rows[v].push_back(u);
    }
    for (auto& r : rows) std::sort(r.begin(), r.end());
    ds.graphs.push_back(CsrGraph::FromRows(rows));
    ds.raw_labels.push_back(k % 2);
    if (tagged) {
      for (std::uint32_t u = 0; u < n; ++u) ds.node_tags.push_back(u == 0 ? 7 : 3);
    }
  }
  MapLabels(&ds);
  return ds;
}

}  // namespace testing
}  // namespace ldpgraph

#endif  // LDPGRAPH_TESTS_SUPPORT_GRAPH_FIXTURES_H_
