#include "dataset/generators.h"

#include <algorithm>
#include <cmath>

#include "ldpgraph/samplers.h"

namespace ldpgraph {

using EdgeList = std::vector<std::pair<std::uint32_t, std::uint32_t>>;

CsrGraph BarabasiAlbert(std::uint32_t n, std::uint32_t m, RandomSource& rng) {
  EdgeList edges;
  std::vector<std::uint32_t> repeated;  // each node once per incident edge end
  for (std::uint32_t v = 1; v <= m && v < n; ++v) {
    edges.emplace_back(0, v);
    repeated.push_back(0);
    repeated.push_back(v);
  }
  std::vector<std::uint32_t> targets;
  for (std::uint32_t v = m + 1; v < n; ++v) {
    targets.clear();
    while (targets.size() < m) {
      const std::uint32_t t = repeated[UniformBelow(rng, repeated.size())];
      if (std::find(targets.begin(), targets.end(), t) == targets.end()) targets.push_back(t);
    }
    for (std::uint32_t t : targets) {
      edges.emplace_back(v, t);
      repeated.push_back(v);
      repeated.push_back(t);
    }
  }
  return CsrGraph::FromUndirectedEdges(n, edges);
}

namespace {

// Each node i of [first_a, first_a + size_a) links to a Binomial number of
// uniformly chosen nodes of [first_b, first_b + size_b) (only j > i when the
// two ranges are the same block).
void LinkBlocks(std::uint32_t first_a, std::uint32_t size_a, std::uint32_t first_b, std::uint32_t size_b, double p,
                RandomSource& rng, EdgeList* edges) {
  if (p <= 0) return;
  const bool same = first_a == first_b;
  std::vector<std::uint32_t> picked;
  for (std::uint32_t i = 0; i < size_a; ++i) {
    const std::uint32_t span = same ? size_b - i - 1 : size_b;  // candidates j
    if (span == 0) continue;
    picked.clear();
    (void)SampleSubsetAvoiding(rng, span, {}, Binomial(rng, span, p), &picked);
    for (std::uint32_t k : picked) edges->emplace_back(first_a + i, first_b + (same ? i + 1 + k : k));
  }
}

}  // namespace

CsrGraph ErdosRenyi(std::uint32_t n, double p, RandomSource& rng) {
  EdgeList edges;
  LinkBlocks(0, n, 0, n, p, rng, &edges);
  return CsrGraph::FromUndirectedEdges(n, edges);
}

CsrGraph StochasticBlockModel(const std::vector<std::uint32_t>& sizes,
                              const std::vector<std::vector<double>>& probs, RandomSource& rng) {
  std::vector<std::uint32_t> first(sizes.size() + 1, 0);
  for (std::size_t a = 0; a < sizes.size(); ++a) first[a + 1] = first[a] + sizes[a];
  EdgeList edges;
  for (std::size_t a = 0; a < sizes.size(); ++a) {
    for (std::size_t b = a; b < sizes.size(); ++b) {
      LinkBlocks(first[a], sizes[a], first[b], sizes[b], probs[a][b], rng, &edges);
    }
  }
  return CsrGraph::FromUndirectedEdges(first.back(), edges);
}

GraphDataset SyntheticCommunities(const SyntheticSpec& spec, RandomSource& rng) {
  GraphDataset ds;
  ds.format = DatasetFormat::kS2v;
  ds.name = "synthetic-communities";
  for (std::uint32_t g = 0; g < spec.graphs; ++g) {
    const std::uint32_t n =
        spec.min_nodes + static_cast<std::uint32_t>(UniformBelow(rng, spec.max_nodes - spec.min_nodes + 1));
    const int label = static_cast<int>(g % 2);
    if (label == 0) {
      const auto m = static_cast<std::uint32_t>(std::max(1.0, std::round(spec.mean_degree / 2)));
      ds.graphs.push_back(BarabasiAlbert(n, std::min(m, n - 1), rng));
    } else {
      // Mean degree d: 90% of a node's links inside its half of the graph.
      const std::uint32_t half = n / 2;
      const double p_in = 0.9 * spec.mean_degree / std::max(1.0, half - 1.0);
      const double p_out = 0.1 * spec.mean_degree / std::max(1.0, static_cast<double>(n - half));
      ds.graphs.push_back(StochasticBlockModel({half, n - half}, {{p_in, p_out}, {p_out, p_in}}, rng));
    }
    ds.raw_labels.push_back(label);
  }
  MapLabels(&ds);
  return ds;
}

GraphDataset SyntheticNodeDataset(const NodeDatasetSpec& spec, RandomSource& rng) {
  const std::uint32_t n = spec.nodes, c = spec.classes;
  std::vector<std::uint32_t> sizes(c);
  for (std::uint32_t k = 0; k < c; ++k) sizes[k] = n / c + (k < n % c ? 1 : 0);
  std::vector<std::vector<double>> probs(c, std::vector<double>(c));
  for (std::uint32_t a = 0; a < c; ++a) {
    for (std::uint32_t b = 0; b < c; ++b) {
      // Expected links of a node of a: homophily * degree inside, the rest spread over the other blocks.
      probs[a][b] = a == b ? spec.homophily * spec.mean_degree / std::max(1.0, sizes[a] - 1.0)
                           : (1 - spec.homophily) * spec.mean_degree / std::max(1.0, static_cast<double>(n - sizes[a]));
      probs[a][b] = std::min(probs[a][b], 1.0);
    }
  }
  GraphDataset ds;
  ds.format = DatasetFormat::kCsv;
  ds.name = "sbm";
  ds.graphs.push_back(StochasticBlockModel(sizes, probs, rng));
  ds.node_labels.reserve(n);
  for (std::uint32_t k = 0; k < c; ++k) ds.node_labels.insert(ds.node_labels.end(), sizes[k], k);
  if (spec.features == 0) return ds;

  const std::uint32_t f = spec.features;
  SparseMatrix& x = ds.node_features;
  x.rows = n;
  x.cols = f;
  x.offsets.assign(1, 0);
  x.indices.reserve(static_cast<std::size_t>(n) * spec.words);
  std::vector<std::int32_t> row;
  for (std::uint32_t i = 0; i < n; ++i) {
    const auto label = static_cast<std::uint32_t>(ds.node_labels[i]);
    const std::uint64_t topic_first = static_cast<std::uint64_t>(label) * f / c;
    const std::uint64_t topic_size = static_cast<std::uint64_t>(label + 1) * f / c - topic_first;
    row.clear();
    for (std::uint32_t w = 0; w < spec.words; ++w) {
      const bool topical = UniformUnit(rng) < spec.signal;
      row.push_back(static_cast<std::int32_t>(topical ? topic_first + UniformBelow(rng, topic_size) : UniformBelow(rng, f)));
    }
    std::sort(row.begin(), row.end());
    row.erase(std::unique(row.begin(), row.end()), row.end());
    x.indices.insert(x.indices.end(), row.begin(), row.end());
    x.offsets.push_back(static_cast<std::int64_t>(x.indices.size()));
  }
  ds.feature_dims = f;
  return ds;
}

}  // namespace ldpgraph
