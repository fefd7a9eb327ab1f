#include "dataset/generators.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <unordered_set>

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

Status CheckNodeDatasetSpec(const NodeDatasetSpec& s) {
  if (s.classes < 2 || s.nodes < 2 * s.classes) return Status::InvalidArgument("need classes >= 2 and nodes >= 2 * classes");
  if (!(s.mean_degree > 0) || s.mean_degree > s.nodes / 2.0) return Status::InvalidArgument("the mean degree must be in (0, nodes / 2]");
  if (!(s.homophily >= 0 && s.homophily <= 1)) return Status::InvalidArgument("the homophily must be in [0, 1]");
  if (!s.class_shares.empty()) {
    if (s.class_shares.size() != s.classes) {
      return Status::InvalidArgument(std::to_string(s.class_shares.size()) + " class shares for " +
                                     std::to_string(s.classes) + " classes");
    }
    double sum = 0;
    for (double share : s.class_shares) {
      if (!(share > 0)) return Status::InvalidArgument("every class share must be positive");
      sum += share;
    }
    if (std::fabs(sum - 1) > 1e-3) return Status::InvalidArgument("the class shares must sum to 1");
    for (double share : s.class_shares) {
      if (share * s.nodes < 2) return Status::InvalidArgument("every class needs at least 2 nodes");
    }
  }
  if (s.degree_exponent != 0 && !(s.degree_exponent > 2 && s.degree_exponent <= 10)) {
    return Status::InvalidArgument("the degree exponent must be 0 (no degree correction) or in (2, 10]");
  }
  if (!(s.bridge_fraction >= 0 && s.bridge_fraction < 1)) return Status::InvalidArgument("the bridge fraction must be in [0, 1)");
  if (s.bridge_fraction > 0 && s.degree_exponent == 0) {
    return Status::InvalidArgument("bridges need the degree-corrected model (a degree exponent)");
  }
  if (!(s.misfit_fraction >= 0 && s.misfit_fraction <= 1)) return Status::InvalidArgument("the misfit fraction must be in [0, 1]");
  if (s.max_degree != 0 && (s.max_degree < s.mean_degree || s.max_degree >= s.nodes)) {
    return Status::InvalidArgument("the largest degree must be 0 (n - 1) or in [mean degree, nodes)");
  }
  return Status::Ok();
}

namespace {

// Class sizes from the spec's shares (the remainder to the largest shares).
std::vector<std::uint32_t> ClassSizes(const NodeDatasetSpec& spec) {
  const std::uint32_t n = spec.nodes, c = spec.classes;
  std::vector<std::uint32_t> sizes(c);
  if (spec.class_shares.empty()) {
    for (std::uint32_t k = 0; k < c; ++k) sizes[k] = n / c + (k < n % c ? 1 : 0);
    return sizes;
  }
  std::uint32_t given = 0;
  for (std::uint32_t k = 0; k < c; ++k) {
    sizes[k] = static_cast<std::uint32_t>(std::floor(spec.class_shares[k] * n));
    given += sizes[k];
  }
  std::vector<std::uint32_t> order(c);
  for (std::uint32_t k = 0; k < c; ++k) order[k] = k;
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return spec.class_shares[a] > spec.class_shares[b];
  });
  for (std::uint32_t i = 0; given < n; ++i, ++given) ++sizes[order[i % c]];
  return sizes;
}

// Power-law weights with the given mean, none above `cap`: Pareto draws,
// scaled to the mean, capped, and scaled again until the mean holds.
std::vector<double> PowerLawWeights(std::uint32_t n, double exponent, double mean, double cap, RandomSource& rng) {
  std::vector<double> w(n);
  for (double& x : w) x = std::pow(1 - UniformUnit(rng), -1 / (exponent - 1));
  for (int pass = 0; pass < 20; ++pass) {
    double sum = 0;
    for (double x : w) sum += x;
    const double scale = mean * n / sum;
    bool capped = false;
    for (double& x : w) {
      x *= scale;
      if (x > cap) {
        x = cap;
        capped = true;
      }
    }
    if (!capped || std::fabs(scale - 1) < 1e-6) break;
  }
  return w;
}

// Draws index i with probability w[i] / sum (cumulative sums, binary search).
class WeightedPick {
 public:
  explicit WeightedPick(std::vector<double> w) : cumulative_(std::move(w)) {
    for (std::size_t i = 1; i < cumulative_.size(); ++i) cumulative_[i] += cumulative_[i - 1];
  }
  std::size_t operator()(RandomSource& rng) const {
    const double u = UniformUnit(rng) * cumulative_.back();
    const auto it = std::upper_bound(cumulative_.begin(), cumulative_.end(), u);
    return std::min<std::size_t>(static_cast<std::size_t>(it - cumulative_.begin()), cumulative_.size() - 1);
  }
  double total() const { return cumulative_.back(); }

 private:
  std::vector<double> cumulative_;
};

CsrGraph DegreeCorrectedBlockModel(const NodeDatasetSpec& spec, const std::vector<std::uint32_t>& sizes,
                                   RandomSource& rng) {
  const std::uint32_t n = spec.nodes, c = spec.classes;
  const double cap = spec.max_degree != 0 ? spec.max_degree : n - 1.0;
  const std::vector<double> weights = PowerLawWeights(n, spec.degree_exponent, spec.mean_degree, cap, rng);
  std::vector<std::uint32_t> first(c + 1, 0);
  for (std::uint32_t k = 0; k < c; ++k) first[k + 1] = first[k] + sizes[k];
  std::vector<WeightedPick> in_class;
  std::vector<double> class_weight(c);
  for (std::uint32_t k = 0; k < c; ++k) {
    in_class.emplace_back(std::vector<double>(weights.begin() + first[k], weights.begin() + first[k + 1]));
    class_weight[k] = in_class.back().total();
  }
  const WeightedPick any(weights);
  std::vector<std::uint32_t> class_of(n);
  for (std::uint32_t k = 0; k < c; ++k) std::fill(class_of.begin() + first[k], class_of.begin() + first[k + 1], k);
  // Bridges pick their friends' class by weight alone; the others keep to
  // their own with the probability that brings the edge homophily to the
  // spec's, as far as it can (1 at most).
  std::vector<char> bridge(n, 0);
  double bridge_weight = 0, chance = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    bridge[i] = UniformUnit(rng) < spec.bridge_fraction;
    if (bridge[i]) bridge_weight += weights[i];
  }
  for (std::uint32_t k = 0; k < c; ++k) chance += (class_weight[k] / any.total()) * (class_weight[k] / any.total());
  const double bridge_share = bridge_weight / any.total();
  const double keep_to_class = std::min(1.0, (spec.homophily - bridge_share * chance) / (1 - bridge_share));
  // Each edge: one end by weight, the other by weight inside her class
  // (homophily) or inside another class chosen by its weight. Self-loops
  // and repeats (common among hubs) are drawn again, so the mean degree
  // holds; a graph too dense for its weights stops after 20 tries an edge.
  const auto edges = static_cast<std::uint64_t>(std::llround(spec.mean_degree * n / 2));
  EdgeList list;
  list.reserve(edges);
  std::unordered_set<std::uint64_t> seen;
  seen.reserve(edges);
  for (std::uint64_t tries = 0; list.size() < edges && tries < 20 * edges; ++tries) {
    const auto u = static_cast<std::uint32_t>(any(rng));
    const std::uint32_t a = class_of[u];
    std::uint32_t b = a;
    if (bridge[u]) {
      b = class_of[any(rng)];
    } else if (!Bernoulli(rng, keep_to_class)) {
      const double others = any.total() - class_weight[a];
      double x = UniformUnit(rng) * others;
      for (b = 0; b < c; ++b) {
        if (b == a) continue;
        if ((x -= class_weight[b]) < 0) break;
      }
      if (b == c) b = a == c - 1 ? c - 2 : c - 1;  // rounding at the end of the sum
    }
    const auto v = static_cast<std::uint32_t>(first[b] + in_class[b](rng));
    if (u == v || !seen.insert(std::uint64_t{std::min(u, v)} << 32 | std::max(u, v)).second) continue;
    list.emplace_back(u, v);
  }
  return CsrGraph::FromUndirectedEdges(n, list);
}

// Every node of a block the same expected degree.
CsrGraph PlainBlockModel(const NodeDatasetSpec& spec, const std::vector<std::uint32_t>& sizes, RandomSource& rng) {
  const std::uint32_t n = spec.nodes, c = spec.classes;
  std::vector<std::vector<double>> probs(c, std::vector<double>(c));
  for (std::uint32_t a = 0; a < c; ++a) {
    for (std::uint32_t b = 0; b < c; ++b) {
      // Expected links of a node of a: homophily * degree inside, the rest spread over the other blocks.
      probs[a][b] = a == b ? spec.homophily * spec.mean_degree / std::max(1.0, sizes[a] - 1.0)
                           : (1 - spec.homophily) * spec.mean_degree / std::max(1.0, static_cast<double>(n - sizes[a]));
      probs[a][b] = std::min(probs[a][b], 1.0);
    }
  }
  return StochasticBlockModel(sizes, probs, rng);
}

// A label from the class shares (the community sizes) for each misfit. A
// user is a misfit with probability inversely proportional to her degree
// + 1, scaled so that the expected share is the spec's: in social networks
// the few-friend users are the ones whose friends say least of them, while
// the hubs, which hold most edges, keep the edge homophily high.
void RelabelMisfits(const NodeDatasetSpec& spec, const CsrGraph& graph, const std::vector<std::uint32_t>& sizes,
                    RandomSource& rng, std::vector<std::int64_t>* labels) {
  std::vector<std::uint32_t> cumulative(sizes.size());
  std::partial_sum(sizes.begin(), sizes.end(), cumulative.begin());
  double inverse_sum = 0;
  for (std::uint32_t v = 0; v < graph.num_nodes(); ++v) inverse_sum += 1.0 / (graph.degree(v) + 1.0);
  const double scale = spec.misfit_fraction * graph.num_nodes() / inverse_sum;
  for (std::uint32_t v = 0; v < graph.num_nodes(); ++v) {
    if (!(UniformUnit(rng) < scale / (graph.degree(v) + 1.0))) continue;
    const std::uint64_t pick = UniformBelow(rng, spec.nodes);
    (*labels)[v] = static_cast<std::int64_t>(std::upper_bound(cumulative.begin(), cumulative.end(), pick) -
                                             cumulative.begin());
  }
}

}  // namespace

GraphDataset SyntheticNodeDataset(const NodeDatasetSpec& spec, RandomSource& rng) {
  const std::uint32_t n = spec.nodes, c = spec.classes;
  const std::vector<std::uint32_t> sizes = ClassSizes(spec);
  GraphDataset ds;
  ds.format = DatasetFormat::kCsv;
  ds.name = "sbm";
  ds.graphs.push_back(spec.degree_exponent > 0 ? DegreeCorrectedBlockModel(spec, sizes, rng)
                                               : PlainBlockModel(spec, sizes, rng));
  ds.node_labels.reserve(n);
  for (std::uint32_t k = 0; k < c; ++k) ds.node_labels.insert(ds.node_labels.end(), sizes[k], k);
  if (spec.misfit_fraction > 0) RelabelMisfits(spec, ds.graphs[0], sizes, rng, &ds.node_labels);
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
