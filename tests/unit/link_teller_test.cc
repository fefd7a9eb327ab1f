// LinkTeller's influence: in a two-layer GCN a user moves her friends'
// predictions and nobody's beyond two hops, so the attack ranks edges first;
// a probe leaves the features as it found them, and sparse and dense
// features give the same influence.
#include "audit/link_teller.h"

#include <doctest/doctest.h>

#include "graph/graph_batch.h"
#include "ldpgraph/samplers.h"

using namespace ldpgraph;

namespace {

// A ring of 60 users: everyone's friends are the two next to her.
CsrGraph Ring() {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
  for (std::uint32_t u = 0; u < 60; ++u) edges.emplace_back(u, (u + 1) % 60);
  return CsrGraph::FromUndirectedEdges(60, edges);
}

Matrix RandomFeatures(std::uint64_t seed) {
  SeededRandomSource rng(seed);
  Matrix x = Matrix::Zero(60, 8);
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    for (int k = 0; k < 3; ++k) x(i, static_cast<Eigen::Index>(UniformBelow(rng, 8))) = 1;
  }
  return x;
}

NodeTaskData Data(const CsrGraph& g, NodeFeatures features) {
  NodeTaskData d;
  d.graph = PrepareGraph(g, AggregationFor(NodeGnnKind::kGcn));
  d.features = std::move(features);
  d.labels.assign(g.num_nodes(), -1);
  d.classes = 3;
  return d;
}

NodeGnnModel Gcn() {
  NodeGnnConfig c;
  c.kind = NodeGnnKind::kGcn;
  c.input_dim = 8;
  c.classes = 3;
  c.dropout = 0;
  return NodeGnnModel::Create(c, 7).value();
}

SparseMatrix ToSparse(const Matrix& x) {
  SparseMatrix s;
  s.rows = x.rows();
  s.cols = x.cols();
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    for (Eigen::Index j = 0; j < x.cols(); ++j) {
      if (x(i, j) != 0) s.indices.push_back(static_cast<std::int32_t>(j));
    }
    s.offsets.push_back(static_cast<std::int64_t>(s.indices.size()));
  }
  return s;  // unit weights: the probe must give them values to scale
}

}  // namespace

TEST_CASE("LinkTeller.AUserMovesOnlyWhatIsWithinTwoHops") {
  const CsrGraph g = Ring();
  NodeGnnModel gcn = Gcn();
  Result<InfluenceProbe> probe = InfluenceProbe::Create(&gcn, Data(g, NodeFeatures::Dense(RandomFeatures(1))), 0.05);
  REQUIRE(probe.ok());
  const std::vector<double> first = probe->Influence(10, {11, 12, 13, 30});
  CHECK(first[0] > 0);
  CHECK(first[1] > 0);
  CHECK(first[2] == 0);  // three hops away
  CHECK(first[3] == 0);
  CHECK(probe->Influence(10, {11, 12, 13, 30}) == first);  // the probe put the row back
  Result<LinkAttackResult> r = LinkTellerAuc(*probe, g, 1000, 3);
  REQUIRE(r.ok());
  CHECK(r->edges == 60);
  CHECK(r->non_edges == 60);
  CHECK(r->auc > 0.95);  // a non-edge is within two hops for 2 of 57 strangers
}

TEST_CASE("LinkTeller.SparseAndDenseFeaturesGiveTheSameInfluence") {
  const CsrGraph g = Ring();
  const Matrix x = RandomFeatures(2);
  NodeGnnModel gcn = Gcn();
  InfluenceProbe dense = InfluenceProbe::Create(&gcn, Data(g, NodeFeatures::Dense(x)), 0.05).value();
  InfluenceProbe sparse = InfluenceProbe::Create(&gcn, Data(g, NodeFeatures::Sparse(ToSparse(x))), 0.05).value();
  const std::vector<double> a = dense.Influence(5, {4, 6, 7});
  const std::vector<double> b = sparse.Influence(5, {4, 6, 7});
  for (std::size_t i = 0; i < a.size(); ++i) CHECK(b[i] == doctest::Approx(a[i]).epsilon(1e-3));
}

TEST_CASE("LinkTeller.BadProbesAreRefused") {
  const CsrGraph g = Ring();
  NodeGnnModel gcn = Gcn();
  CHECK(InfluenceProbe::Create(&gcn, Data(g, NodeFeatures::Dense(RandomFeatures(1))), 0).status().code() ==
        StatusCode::kInvalidArgument);
  CHECK(InfluenceProbe::Create(&gcn, Data(g, NodeFeatures::Dense(Matrix::Zero(60, 5))), 0.05).status().code() ==
        StatusCode::kInvalidArgument);
}
