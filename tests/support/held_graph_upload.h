// A held graph to upload in the daemon's tests: three communities whose
// words carry the class, as the JSON body of PUT /v1/admin/held-graphs/{id}.
#ifndef LDPGRAPH_TESTS_SUPPORT_HELD_GRAPH_UPLOAD_H_
#define LDPGRAPH_TESTS_SUPPORT_HELD_GRAPH_UPLOAD_H_

#include <cstdint>

#include <nlohmann/json.hpp>

#include "dataset/generators.h"
#include "ldpgraph/random_source.h"

namespace ldpgraph {
namespace testing {

inline nlohmann::json CommunitiesUpload(std::uint32_t nodes = 900) {
  using nlohmann::json;
  SeededRandomSource rng(4);
  NodeDatasetSpec spec;
  spec.nodes = nodes;
  spec.classes = 3;
  spec.mean_degree = 8;
  spec.homophily = 0.9;
  spec.features = 60;
  spec.words = 5;
  spec.signal = 0.5;
  const GraphDataset ds = SyntheticNodeDataset(spec, rng);
  json edges = json::array(), features = json::array(), labels = json::array();
  const CsrGraph& g = ds.graphs[0];
  for (std::uint32_t u = 0; u < g.num_nodes(); ++u) {
    for (std::uint32_t v : g.neighbours(u)) {
      if (u < v) edges.push_back({u, v});
    }
  }
  const SparseMatrix& x = ds.node_features;
  for (std::int64_t r = 0; r < x.rows; ++r) {
    for (std::int64_t k = x.offsets[r]; k < x.offsets[r + 1]; ++k) {
      features.push_back({r, x.indices[k], x.unit_weights() ? 1.0 : x.values[k]});
    }
  }
  for (std::int64_t y : ds.node_labels) labels.push_back(y);
  return {{"num_nodes", nodes}, {"classes", 3}, {"feature_dims", 60},
          {"edges", edges},     {"features", features}, {"labels", labels}};
}

}  // namespace testing
}  // namespace ldpgraph

#endif  // LDPGRAPH_TESTS_SUPPORT_HELD_GRAPH_UPLOAD_H_
