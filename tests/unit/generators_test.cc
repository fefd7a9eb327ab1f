#include "dataset/generators.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

using namespace ldpgraph;

TEST_CASE("Generators.BarabasiAlbertEdgeCountAndMinimumDegree") {
  SeededRandomSource rng(1);
  const std::uint32_t n = 2000, m = 3;
  CsrGraph g = BarabasiAlbert(n, m, rng);
  CHECK(g.num_nodes() == n);
  CHECK(g.num_entries() == 2u * (m + (n - m - 1) * m));  // star, then m edges per new node
  std::uint32_t max_degree = 0;
  for (std::uint32_t v = 0; v < n; ++v) {
    CHECK(g.degree(v) >= 1u);
    if (v > m) CHECK(g.degree(v) >= m);
    max_degree = std::max(max_degree, g.degree(v));
  }
  CHECK(max_degree > 10 * 2 * m);  // hubs: a heavy tail
}

TEST_CASE("Generators.ErdosRenyiMeanDegree") {
  SeededRandomSource rng(2);
  const std::uint32_t n = 3000;
  const double p = 0.004;
  CsrGraph g = ErdosRenyi(n, p, rng);
  const double edges = g.num_entries() / 2.0, expected = p * n * (n - 1) / 2.0;
  CHECK(std::fabs(edges - expected) < 6 * std::sqrt(expected));  // Binomial: 6 sigma
}

TEST_CASE("Generators.StochasticBlockModelDensities") {
  SeededRandomSource rng(3);
  CsrGraph g = StochasticBlockModel({500, 500}, {{0.02, 0.001}, {0.001, 0.02}}, rng);
  double inside = 0, across = 0;
  for (std::uint32_t v = 0; v < 1000; ++v) {
    for (std::uint32_t u : g.neighbours(v)) ((u < 500) == (v < 500) ? inside : across) += 0.5;
  }
  const double expect_in = 2 * 0.02 * 500 * 499 / 2, expect_across = 0.001 * 500 * 500;
  CHECK(std::fabs(inside - expect_in) < 6 * std::sqrt(expect_in));
  CHECK(std::fabs(across - expect_across) < 6 * std::sqrt(expect_across));
}

TEST_CASE("Generators.SyntheticCommunitiesHasTwoBalancedClasses") {
  SeededRandomSource rng(4);
  SyntheticSpec spec;
  spec.graphs = 50;
  GraphDataset ds = SyntheticCommunities(spec, rng);
  CHECK(ds.graphs.size() == 50u);
  CHECK(ds.num_classes == 2u);
  for (const auto& g : ds.graphs) {
    CHECK(g.num_nodes() >= spec.min_nodes);
    CHECK(g.num_nodes() <= spec.max_nodes);
  }
}

TEST_CASE("Generators.SyntheticNodeDatasetHasItsDegreeHomophilyAndWords") {
  SeededRandomSource rng(5);
  NodeDatasetSpec spec;
  spec.nodes = 8000;
  spec.classes = 4;
  spec.mean_degree = 12;
  spec.homophily = 0.7;
  spec.features = 400;
  spec.words = 10;
  spec.signal = 0.3;
  const GraphDataset ds = SyntheticNodeDataset(spec, rng);
  REQUIRE(ds.format == DatasetFormat::kCsv);
  const CsrGraph& g = ds.graphs[0];
  REQUIRE(g.num_nodes() == spec.nodes);
  REQUIRE(ds.node_labels.size() == spec.nodes);
  std::vector<int> per_class(4, 0);
  for (auto l : ds.node_labels) ++per_class[static_cast<std::size_t>(l)];
  CHECK(per_class == std::vector<int>{2000, 2000, 2000, 2000});
  double inside = 0;
  for (std::uint32_t v = 0; v < g.num_nodes(); ++v) {
    for (std::uint32_t u : g.neighbours(v)) inside += ds.node_labels[u] == ds.node_labels[v] ? 1 : 0;
  }
  const double entries = static_cast<double>(g.num_entries());
  CHECK(entries / spec.nodes == doctest::Approx(spec.mean_degree).epsilon(0.03));
  CHECK(inside / entries == doctest::Approx(spec.homophily).epsilon(0.03));

  const SparseMatrix& x = ds.node_features;
  REQUIRE(ds.feature_dims == spec.features);
  REQUIRE(x.rows == spec.nodes);
  CHECK(x.unit_weights());
  // Words merge when drawn twice: a little under `words` per node, never more.
  const double per_node = static_cast<double>(x.nnz()) / spec.nodes;
  CHECK(per_node <= spec.words);
  CHECK(per_node > spec.words - 1);
  // A draw lands in the node's class block with probability signal + (1 - signal) / classes.
  double topical = 0;
  for (std::int64_t v = 0; v < x.rows; ++v) {
    for (std::int64_t k = x.offsets[v]; k < x.offsets[v + 1]; ++k) {
      CHECK(x.indices[k] >= 0);
      CHECK(x.indices[k] < static_cast<std::int32_t>(spec.features));
      if (k > x.offsets[v]) CHECK(x.indices[k] > x.indices[k - 1]);  // sorted, no repeats
      topical += x.indices[k] / 100 == ds.node_labels[static_cast<std::size_t>(v)] ? 1 : 0;
    }
  }
  CHECK(topical / static_cast<double>(x.nnz()) == doctest::Approx(0.3 + 0.7 / 4).epsilon(0.03));
}

TEST_CASE("Generators.DegreeCorrectedNodeDatasetHasAHeavyTailItsSharesAndHomophily") {
  NodeDatasetSpec spec;
  spec.nodes = 20000;
  spec.mean_degree = 15;
  spec.homophily = 0.88;
  spec.features = 0;
  spec.class_shares = {0.3, 0.15, 0.25, 0.3};
  spec.degree_exponent = 2.3;
  spec.max_degree = 600;
  REQUIRE(CheckNodeDatasetSpec(spec).ok());
  SeededRandomSource rng(5);
  const GraphDataset ds = SyntheticNodeDataset(spec, rng);
  const CsrGraph& g = ds.graphs[0];
  // The mean degree exactly (repeats are drawn again), the largest capped.
  CHECK(g.num_entries() == 2u * 150000);
  std::vector<std::uint32_t> degrees;
  std::uint64_t within = 0;
  for (std::uint32_t u = 0; u < g.num_nodes(); ++u) {
    degrees.push_back(g.degree(u));
    for (std::uint32_t v : g.neighbours(u)) within += ds.node_labels[u] == ds.node_labels[v];
  }
  std::sort(degrees.begin(), degrees.end());
  const std::uint32_t median = degrees[degrees.size() / 2], p99 = degrees[degrees.size() * 99 / 100];
  CHECK(median < 15);          // most users below the mean...
  CHECK(p99 > 8 * median);     // ...and a heavy tail
  CHECK(degrees.back() <= 700);  // the cap, give or take the draws around it
  CHECK(static_cast<double>(within) / g.num_entries() == doctest::Approx(0.88).epsilon(0.02));
  std::vector<int> counts(4, 0);
  for (std::int64_t label : ds.node_labels) ++counts[static_cast<std::size_t>(label)];
  CHECK(counts == std::vector<int>{6000, 3000, 5000, 6000});
}

TEST_CASE("Generators.BadNodeDatasetSpecsAreNamed") {
  const auto error = [](void (*change)(NodeDatasetSpec&)) {
    NodeDatasetSpec spec;
    change(spec);
    return CheckNodeDatasetSpec(spec).message();
  };
  CHECK(CheckNodeDatasetSpec(NodeDatasetSpec{}).ok());
  CHECK(error([](NodeDatasetSpec& s) { s.class_shares = {0.5, 0.5}; }).find("2 class shares for 4") != std::string::npos);
  CHECK(error([](NodeDatasetSpec& s) { s.class_shares = {0.5, 0.3, 0.1, 0.2}; }).find("sum to 1") != std::string::npos);
  CHECK(error([](NodeDatasetSpec& s) { s.class_shares = {1, 0, 0, 0}; }).find("positive") != std::string::npos);
  CHECK(error([](NodeDatasetSpec& s) { s.degree_exponent = 1.5; }).find("exponent") != std::string::npos);
  CHECK(error([](NodeDatasetSpec& s) { s.max_degree = 5; }).find("largest degree") != std::string::npos);
  CHECK(error([](NodeDatasetSpec& s) { s.homophily = 1.5; }).find("homophily") != std::string::npos);
  CHECK(error([](NodeDatasetSpec& s) { s.bridge_fraction = 0.2; }).find("degree-corrected") != std::string::npos);
  CHECK(error([](NodeDatasetSpec& s) {
          s.degree_exponent = 2.5;
          s.bridge_fraction = 1;
        }).find("bridge fraction") != std::string::npos);
}

// Users of degree >= 4 a minority of whose friends share her class, and
// the edge homophily.
std::pair<std::uint32_t, double> Mixed(double bridges) {
  NodeDatasetSpec spec;
  spec.nodes = 20000;
  spec.mean_degree = 12;
  spec.homophily = 0.85;
  spec.features = 0;
  spec.degree_exponent = 2.5;
  spec.bridge_fraction = bridges;
  REQUIRE(CheckNodeDatasetSpec(spec).ok());
  SeededRandomSource rng(8);
  const GraphDataset ds = SyntheticNodeDataset(spec, rng);
  const CsrGraph& g = ds.graphs[0];
  std::uint64_t within = 0;
  std::uint32_t mixed = 0;
  for (std::uint32_t u = 0; u < g.num_nodes(); ++u) {
    std::uint32_t alike = 0;
    for (std::uint32_t v : g.neighbours(u)) alike += ds.node_labels[u] == ds.node_labels[v];
    within += alike;
    mixed += g.degree(u) >= 4 && alike * 2 < g.degree(u);
  }
  return {mixed, static_cast<double>(within) / g.num_entries()};
}

TEST_CASE("Generators.BridgesMixClassesWhileTheOthersKeepTheHomophily") {
  // Plain variables: clang's C++17 does not let INFO's lambda capture a structured binding.
  const std::pair<std::uint32_t, double> without = Mixed(0), with = Mixed(0.1);
  const std::uint32_t none = without.first, some = with.first;
  INFO("mixed users: " << none << " without bridges, " << some << " with");
  CHECK(without.second == doctest::Approx(0.85).epsilon(0.02));
  CHECK(with.second == doctest::Approx(0.85).epsilon(0.03));
  // The same homophily, but spread unevenly: far more users whose friends
  // tell little of their class.
  CHECK(some > 4 * none);
}

TEST_CASE("Generators.MisfitsAreFewFriendUsersLabelledRegardlessOfTheirCommunity") {
  NodeDatasetSpec spec;
  spec.nodes = 20000;
  spec.mean_degree = 12;
  spec.homophily = 0.95;
  spec.features = 0;
  spec.degree_exponent = 2.5;
  spec.misfit_fraction = 0.2;
  REQUIRE(CheckNodeDatasetSpec(spec).ok());
  SeededRandomSource rng(8);
  const GraphDataset ds = SyntheticNodeDataset(spec, rng);
  const CsrGraph& g = ds.graphs[0];
  // Equal shares: nodes are numbered community by community, 5,000 each.
  std::uint64_t within = 0, changed = 0, changed_degree = 0, kept_degree = 0;
  for (std::uint32_t u = 0; u < g.num_nodes(); ++u) {
    const bool misfit = ds.node_labels[u] != u / 5000;
    changed += misfit;
    (misfit ? changed_degree : kept_degree) += g.degree(u);
    for (std::uint32_t v : g.neighbours(u)) within += ds.node_labels[u] == ds.node_labels[v];
  }
  const double homophily = static_cast<double>(within) / g.num_entries();
  const double changed_share = static_cast<double>(changed) / g.num_nodes();
  const double changed_mean = static_cast<double>(changed_degree) / changed;
  const double kept_mean = static_cast<double>(kept_degree) / (g.num_nodes() - changed);
  INFO("changed " << changed_share << ", mean degree " << changed_mean << " against " << kept_mean
                  << ", homophily " << homophily);
  // A fifth relabelled from 4 equal shares: 15% change.
  CHECK(changed_share == doctest::Approx(0.15).epsilon(0.1));
  CHECK(changed_mean < 0.6 * kept_mean);
  // Uniform misfits would cost the edge homophily about 0.95 (1 - 0.85^2) = 0.26.
  CHECK(homophily > 0.95 - 0.15);
  CHECK(homophily < 0.95 - 0.02);
  spec.misfit_fraction = 1.5;
  CHECK(CheckNodeDatasetSpec(spec).message().find("misfit fraction") != std::string::npos);
}
