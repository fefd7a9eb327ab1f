// GAP's parts: the multi-hop aggregation computes its formula with unit
// rows, the degree bound keeps a symmetric subgraph within the bound, and
// GAP-EDP trains to the epsilon it was asked for and refuses bad requests.
#include "gap/gap_pipeline.h"

#include <doctest/doctest.h>

#include <cmath>

#include "gap/aggregation.h"
#include "graph/generators.h"
#include "ldpgraph/samplers.h"

using namespace ldpgraph;

TEST_CASE("Gap.AggregationWithoutNoiseIsNormalisedSums") {
  // A directed path 0 -> 1 -> 2 and 2 -> 0: row v of A^T X sums the rows of the nodes listing v.
  const CsrGraph g = CsrGraph::FromRows({{1}, {2}, {0}});
  Matrix x0(3, 2);
  x0 << 1, 0, 0, 1, 0.6f, 0.8f;
  SeededRandomSource rng(1);
  Result<std::vector<Matrix>> agg = PrivateMultiHopAggregation(g, x0, 2, 0.0, rng);
  REQUIRE(agg.ok());
  REQUIRE(agg->size() == 3u);
  CHECK(((*agg)[0] - x0).norm() == 0);
  Matrix expected(3, 2);
  expected << 0.6f, 0.8f, 1, 0, 0, 1;  // node 0 is listed by 2, node 1 by 0, node 2 by 1
  CHECK(((*agg)[1] - expected).norm() < 1e-6f);
  CHECK(!IsSymmetric(g));
  CHECK(IsSymmetric(CsrGraph::FromUndirectedEdges(3, {{0, 1}, {1, 2}})));

  CHECK_FALSE(PrivateMultiHopAggregation(g, x0, 0, 0.0, rng).ok());
  CHECK_FALSE(PrivateMultiHopAggregation(g, x0, 1, -1.0, rng).ok());
  CHECK_FALSE(PrivateMultiHopAggregation(g, Matrix(2, 2), 1, 0.0, rng).ok());
}

TEST_CASE("Gap.NoisyAggregatesHaveUnitRowsAndTheirNoise") {
  SeededRandomSource rng(2);
  const CsrGraph g = ErdosRenyi(4000, 0.002, rng);
  Matrix x0 = Matrix::Ones(4000, 4);
  NormaliseRows(&x0);
  // One hop's noise alone: the clean aggregate subtracted before normalising is not
  // observable, so compare the noisy first hop with the clean one row by row.
  Result<std::vector<Matrix>> clean = PrivateMultiHopAggregation(g, x0, 1, 0.0, rng);
  Result<std::vector<Matrix>> noisy = PrivateMultiHopAggregation(g, x0, 1, 3.0, rng);
  REQUIRE(clean.ok());
  REQUIRE(noisy.ok());
  double mean_cos = 0;
  for (Eigen::Index r = 0; r < 4000; ++r) {
    CHECK((*noisy)[1].row(r).norm() == doctest::Approx(1).epsilon(1e-5));
    mean_cos += (*noisy)[1].row(r).dot((*clean)[1].row(r)) / 4000;
  }
  // Mean degree 8: signal norm about 8 against noise norm about 3 * 2 = 6.
  CHECK(mean_cos > 0.5);
  CHECK(mean_cos < 0.95);
}

TEST_CASE("Gap.DegreeBoundKeepsASymmetricSubgraph") {
  SeededRandomSource rng(3);
  const CsrGraph g = BarabasiAlbert(2000, 4, rng);  // hubs far above the bound
  const CsrGraph bounded = BoundDegree(g, 10, rng);
  CHECK(IsSymmetric(bounded));
  std::uint64_t kept = 0;
  for (std::uint32_t v = 0; v < bounded.num_nodes(); ++v) {
    CHECK(bounded.degree(v) <= 10u);
    for (std::uint32_t u : bounded.neighbours(v)) {
      const auto row = g.neighbours(v);
      CHECK(std::binary_search(row.begin(), row.end(), u));  // only edges of g
      ++kept;
    }
  }
  CHECK(kept > g.num_entries() / 2);  // most edges of a BA graph with m = 4 survive a bound of 10
  const CsrGraph loose = BoundDegree(g, 100000, rng);
  CHECK(loose.targets() == g.targets());
}

TEST_CASE("Gap.EdgeLevelTrainsToItsEpsilonAndRefusesBadRequests") {
  SeededRandomSource rng(4);
  NodeDatasetSpec spec;
  spec.nodes = 1200;
  spec.classes = 3;
  spec.mean_degree = 8;
  spec.homophily = 0.9;
  spec.features = 60;
  spec.words = 5;
  spec.signal = 0.15;
  const GraphDataset ds = SyntheticNodeDataset(spec, rng);
  const NodeFeatures features = NodeFeatures::Sparse(ds.node_features);
  std::vector<int> labels(ds.node_labels.begin(), ds.node_labels.end());
  GapInputs in;
  in.graph = &ds.graphs[0];
  in.features = &features;
  in.labels = &labels;
  in.classes = 3;
  in.split = StratifiedSplit(labels, 0.5, 0.25, 1);
  GapOptions o;
  o.encoder_epochs = o.classifier_epochs = 60;
  Result<GapRun> open = TrainGap(in, o);
  REQUIRE_MESSAGE(open.ok(), open.status().ToString());
  CHECK(open->noise_stddev == 0);
  CHECK(open->test_accuracy > 0.85);  // homophilous communities: the aggregates carry the class
  o.epsilon = 2;
  Result<GapRun> priv = TrainGap(in, o);
  REQUIRE(priv.ok());
  CHECK(priv->epsilon <= 2);
  CHECK(priv->epsilon >= 0.99 * 2);
  CHECK(priv->delta == doctest::Approx(1 / (10 * ds.graphs[0].num_entries() / 2.0)));
  CHECK(priv->sensitivity > std::sqrt(2.0));  // an undirected edge, plus the grid's rounding
  CHECK(priv->noise_stddev == doctest::Approx(priv->noise_multiplier * priv->sensitivity));
  CHECK(priv->test_accuracy > 1.0 / 3 + 0.1);

  for (double bad : {0.0, -1.0, std::nan("")}) {
    o.epsilon = bad;
    CHECK(TrainGap(in, o).status().code() == StatusCode::kInvalidArgument);
  }
  o.epsilon = 1;
  o.delta = 1.5;
  CHECK(TrainGap(in, o).status().code() == StatusCode::kInvalidArgument);
  o.delta = 0;
  o.model.hops = 0;
  CHECK(TrainGap(in, o).status().code() == StatusCode::kInvalidArgument);
}
