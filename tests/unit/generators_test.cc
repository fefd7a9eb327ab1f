#include "graph/generators.h"

#include <doctest/doctest.h>

#include <cmath>

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
