// Node orders (graph/node_order.h) and the renumbering of a graph and its
// node inputs with them (engine/permute_rows.h): every order a bijection,
// reverse Cuthill-McKee bringing a scrambled path back to a band of width
// one, and nothing of a graph or its inputs lost or moved to another user.
#include "graph/node_order.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <set>
#include <utility>

#include "engine/permute_rows.h"
#include "ldpgraph/random_source.h"

using namespace ldpgraph;

namespace {

// A path 0-1-...-(n-1) with its nodes numbered by a random permutation.
CsrGraph ScrambledPath(std::uint32_t n, std::uint64_t seed) {
  std::vector<std::uint32_t> label(n);
  std::iota(label.begin(), label.end(), 0u);
  SeededRandomSource rng(seed);
  for (std::uint32_t i = n; i > 1; --i) std::swap(label[i - 1], label[rng.NextU64() % i]);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
  for (std::uint32_t i = 0; i + 1 < n; ++i) edges.emplace_back(label[i], label[i + 1]);
  return CsrGraph::FromUndirectedEdges(n, edges);
}

bool IsBijection(const NodePermutation& p, std::uint32_t n) {
  if (p.size() != n || p.new_of_old.size() != n) return false;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (p.old_of_new[i] >= n || p.new_of_old[p.old_of_new[i]] != i) return false;
  }
  return true;
}

std::set<std::pair<std::uint32_t, std::uint32_t>> Edges(const CsrGraph& g) {
  std::set<std::pair<std::uint32_t, std::uint32_t>> edges;
  for (std::uint32_t v = 0; v < g.num_nodes(); ++v) {
    for (std::uint32_t u : g.neighbours(v)) edges.emplace(v, u);
  }
  return edges;
}

}  // namespace

TEST_CASE("NodeOrder.EveryOrderIsABijection") {
  // Two components, an isolated node and a one-sided row (a noisy graph's).
  const CsrGraph g = CsrGraph::FromRows({{1, 2}, {0}, {0}, {}, {5}, {4, 6}, {}});
  for (NodeOrder order : {NodeOrder::kAsGiven, NodeOrder::kRcm, NodeOrder::kDegree}) {
    CAPTURE(NodeOrderName(order));
    CHECK(IsBijection(OrderNodes(g, order), g.num_nodes()));
  }
  const NodePermutation given = OrderNodes(g, NodeOrder::kAsGiven);
  for (std::uint32_t i = 0; i < g.num_nodes(); ++i) CHECK(given.old_of_new[i] == i);
  const NodePermutation by_degree = OrderNodes(g, NodeOrder::kDegree);
  for (std::uint32_t i = 1; i < g.num_nodes(); ++i) {
    CHECK(g.degree(by_degree.old_of_new[i - 1]) >= g.degree(by_degree.old_of_new[i]));
  }
}

TEST_CASE("NodeOrder.RcmGivesAScrambledPathBandwidthOne") {
  for (std::uint64_t seed : {1, 2, 3}) {
    const CsrGraph path = ScrambledPath(1000, seed);
    std::uint32_t before = 0, after = 0;
    for (std::uint32_t v = 0; v < path.num_nodes(); ++v) {
      for (std::uint32_t u : path.neighbours(v)) before = std::max(before, u > v ? u - v : v - u);
    }
    const CsrGraph ordered = PermuteGraph(path, OrderNodes(path, NodeOrder::kRcm));
    for (std::uint32_t v = 0; v < ordered.num_nodes(); ++v) {
      for (std::uint32_t u : ordered.neighbours(v)) after = std::max(after, u > v ? u - v : v - u);
    }
    CHECK(before > 100);
    CHECK(after == 1);
  }
}

TEST_CASE("NodeOrder.PermutingKeepsEveryEdgeAndWeight") {
  const CsrGraph g = CsrGraph::FromRows({{1, 3}, {0, 2}, {1}, {0, 2}});  // row 3 one-sided to 2
  std::vector<float> weights(g.num_entries());
  for (std::size_t k = 0; k < weights.size(); ++k) weights[k] = 0.5f + static_cast<float>(k);
  const NodePermutation p = NodePermutation::FromOrder({2, 0, 3, 1});
  std::vector<float> moved;
  const CsrGraph h = PermuteGraph(g, p, &weights, &moved);
  REQUIRE(h.num_entries() == g.num_entries());
  std::set<std::pair<std::uint32_t, std::uint32_t>> mapped;
  for (auto [v, u] : Edges(g)) mapped.emplace(p.new_of_old[v], p.new_of_old[u]);
  CHECK(Edges(h) == mapped);
  for (std::uint32_t v = 0; v < h.num_nodes(); ++v) {
    auto row = h.neighbours(v);
    CHECK(std::is_sorted(row.begin(), row.end()));
    for (std::uint32_t k = 0; k < row.size(); ++k) {  // each weight still on its edge
      const std::uint32_t old_v = p.old_of_new[v], old_u = p.old_of_new[row[k]];
      auto old_row = g.neighbours(old_v);
      const auto at = std::lower_bound(old_row.begin(), old_row.end(), old_u) - old_row.begin();
      CHECK(moved[h.offsets()[v] + k] == weights[g.offsets()[old_v] + static_cast<std::size_t>(at)]);
    }
  }
  CHECK(!ParseNodeOrder("bfs").ok());
  CHECK(ParseNodeOrder("rcm").value() == NodeOrder::kRcm);
}

TEST_CASE("NodeOrder.InputsMoveWithTheirUsers") {
  const std::vector<std::uint32_t> old_of_new = {2, 0, 1};
  SparseMatrix s;
  s.rows = 3;
  s.cols = 4;
  s.offsets = {0, 1, 1, 3};
  s.indices = {2, 0, 3};
  s.values = {1.5f, 2.5f, 3.5f};
  const SparseMatrix t = PermuteRows(s, old_of_new);
  CHECK(t.offsets == std::vector<std::int64_t>{0, 2, 3, 3});
  CHECK(t.indices == std::vector<std::int32_t>{0, 3, 2});
  CHECK(t.values == std::vector<float>{2.5f, 3.5f, 1.5f});
  Matrix dense(3, 2);
  dense << 1, 2, 3, 4, 5, 6;
  const Matrix moved = PermuteRows(ViewOf(dense), old_of_new);
  CHECK(moved(0, 0) == 5);
  CHECK(moved(1, 1) == 2);
  CHECK(moved(2, 0) == 3);
  FactoredFeatures f;
  f.sparse = s;
  f.left = dense.leftCols(1);
  f.right = Matrix::Ones(1, 4);
  const NodeFeatures factored = PermuteRows(NodeFeatures::Factored(f), old_of_new);
  REQUIRE(factored.is_factored());
  CHECK(factored.factored().left(0, 0) == 5);
  const Matrix want = PermuteRows(ViewOf(f.ToDense()), old_of_new);
  CHECK(factored.factored().ToDense().isApprox(want));
}
