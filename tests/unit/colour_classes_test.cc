// GIN on colour classes (graph/colour_classes.h) against GIN on nodes: the
// same class scores, gradients and running statistics up to the order of
// sums, in training and in evaluation, for every kind of graph a batch may
// mix: classes found once, hubs longer than a key, weighted rows, inputs
// replaced after the classes were found, graphs that refine to every node.
#include "graph/colour_classes.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "graph/graph_batch.h"
#include "ldpgraph/random_source.h"
#include "models/gin.h"

using namespace ldpgraph;

namespace {

// A thread: one post answered by `leaves` users, `tails` of whom drew one reply each.
CsrGraph Thread(std::uint32_t leaves, std::uint32_t tails) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
  for (std::uint32_t v = 1; v <= leaves; ++v) edges.emplace_back(0, v);
  for (std::uint32_t t = 0; t < tails; ++t) edges.emplace_back(1 + t, leaves + 1 + t);
  return CsrGraph::FromUndirectedEdges(leaves + tails + 1, edges);
}

CsrGraph RandomGraph(std::uint32_t n, int edges, std::uint64_t seed) {
  SeededRandomSource rng(seed);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> list;
  for (int e = 0; e < edges; ++e) {
    const auto u = static_cast<std::uint32_t>(rng.NextU64() % n), v = static_cast<std::uint32_t>(rng.NextU64() % n);
    if (u != v) list.emplace_back(u, v);
  }
  return CsrGraph::FromUndirectedEdges(n, list);
}

// Graphs of every kind, prepared for GIN with the given inputs.
std::vector<PreparedGraph> MixedGraphs(int degree_cap, bool size_input) {
  std::vector<PreparedGraph> graphs;
  for (std::uint32_t leaves : {5u, 40u, 12u, 40u}) {  // 40 leaves: the hub's row is past the key length
    graphs.push_back(PrepareGraph(Thread(leaves, leaves / 4), Aggregation::kSumWithSelf, degree_cap, size_input));
  }
  graphs.push_back(PrepareGraph(RandomGraph(30, 70, 4), Aggregation::kSumWithSelf, degree_cap, size_input));
  // Directed reports, as under DPRR: rows differ from columns.
  graphs.push_back(PrepareGraph(CsrGraph::FromRows({{1, 2, 3}, {0}, {0}, {}, {0, 1}}), Aggregation::kSumWithSelf,
                                degree_cap, size_input));
  // Weighted rows (link LDP's denoised graphs): two weights on equal stars.
  const CsrGraph star = Thread(8, 0);
  std::vector<float> weights(star.targets().size(), 0.25f);
  weights[0] = 0.75f;
  graphs.push_back(PrepareGraph(star, &weights, Aggregation::kSumWithSelf, degree_cap, size_input));
  // Inputs replaced after the classes were found: the colours no longer apply.
  PreparedGraph replaced = PrepareGraph(Thread(10, 0), Aggregation::kSumWithSelf, degree_cap, size_input);
  for (Eigen::Index v = 0; v < replaced.inputs.rows(); ++v) {
    replaced.inputs(v, 0) = 1.0f + 0.01f * static_cast<float>(v);
  }
  graphs.push_back(std::move(replaced));
  return graphs;
}

void CheckClose(const Matrix& a, const Matrix& b, const char* what) {
  INFO(what);
  REQUIRE(a.rows() == b.rows());
  REQUIRE(a.cols() == b.cols());
  const float scale = std::max(1.0f, b.cwiseAbs().maxCoeff());
  CHECK((a - b).cwiseAbs().maxCoeff() <= 2e-4f * scale);
}

struct Pass {
  Matrix scores;
  std::vector<Matrix> grads;
  std::vector<BatchNormStats> stats;
};

Pass Run(GinModel* model, const GraphBatch& batch, bool training) {
  for (Parameter* p : model->Parameters()) p->ZeroGrad();
  SeededRandomSource rng(11);
  Tape tape(training, &rng);
  const Tape::Var scores = model->Forward(tape, batch, tape.Constant(batch.inputs));
  Pass pass;
  pass.scores = tape.value(scores);
  if (training) tape.Backward(tape.SoftmaxCrossEntropy(scores, &batch.labels));
  for (Parameter* p : model->Parameters()) pass.grads.push_back(p->grad);
  for (BatchNormStats* s : model->Stats()) pass.stats.push_back(*s);
  return pass;
}

void CheckSameAsNodes(int degree_cap, bool size_input) {
  const std::vector<PreparedGraph> graphs = MixedGraphs(degree_cap, size_input);
  std::vector<std::uint32_t> ids, labels;
  for (std::uint32_t g = 0; g < graphs.size(); ++g) {
    ids.push_back(g);
    labels.push_back(g % 2);
  }
  const GraphBatch batch = MakeBatch(graphs, ids, labels);
  GinConfig config;
  config.hidden = 16;
  config.layers = 4;
  config.dropout = 0.5f;  // drawn alike on both paths
  config.degree_cap = degree_cap;
  config.size_input = size_input;
  config.input_dim = GinInputWidth(config);
  // The batch does run on classes (else this test would compare the node path with itself).
  const ColourClasses classes =
      BuildColourClasses(batch, batch.inputs, config.layers - 1, true, GinModel::kMaxClassShare);
  REQUIRE(classes.levels.size() == 4);
  CHECK(classes.levels[3].step.rows < batch.inputs.rows());

  GinModel on_classes = *GinModel::Create(config, 3);
  GinModel on_nodes = *GinModel::Create(config, 3);
  on_nodes.ShareColourClasses(false);
  for (bool training : {true, true, false}) {  // twice in training: the running statistics move
    CAPTURE(training);
    const Pass a = Run(&on_classes, batch, training);
    const Pass b = Run(&on_nodes, batch, training);
    CheckClose(a.scores, b.scores, "class scores");
    for (std::size_t i = 0; i < a.grads.size(); ++i) CheckClose(a.grads[i], b.grads[i], "a parameter's gradient");
    for (std::size_t i = 0; i < a.stats.size(); ++i) {
      CheckClose(a.stats[i].mean, b.stats[i].mean, "running mean");
      CheckClose(a.stats[i].var, b.stats[i].var, "running variance");
    }
  }
}

}  // namespace

TEST_CASE("ColourClasses.ThreadsRefineToCentreLeavesAndTails") {
  const PreparedGraph p = PrepareGraph(Thread(6, 2), Aggregation::kSumWithSelf);
  REQUIRE(p.colours != nullptr);
  const GraphColours& c = *p.colours;
  REQUIRE(c.levels.size() >= 3);
  CHECK(c.levels[0].classes() == 1);  // constant inputs
  // Level 1 tells rows apart by length: the centre (7 entries), the two
  // answered leaves (3), bare leaves and tails alike (2).
  CHECK(c.levels[1].classes() == 3);
  CHECK(c.levels[1].members == std::vector<float>{1, 2, 6});
  // Level 2 tells answered leaves, bare leaves and tails apart by their neighbours.
  CHECK(c.levels[2].classes() == 4);
  // The centre's row at level 1: itself (class 0 at level 0) and six leaves: one entry of weight 7.
  CHECK(c.levels[1].step.values[0] == 7.0f);
}

TEST_CASE("ColourClasses.GinOnClassesEqualsGinOnNodes") {
  SUBCASE("constant inputs") { CheckSameAsNodes(0, false); }
  SUBCASE("degree and size inputs") { CheckSameAsNodes(4, true); }
}

TEST_CASE("ColourClasses.ReplacedInputsMakeEveryNodeItsOwnClass") {
  std::vector<PreparedGraph> graphs = MixedGraphs(0, false);
  const PreparedGraph& replaced = graphs.back();
  const GraphBatch alone = MakeBatch(graphs, {static_cast<std::uint32_t>(graphs.size() - 1)}, {});
  const ColourClasses classes = BuildColourClasses(alone, alone.inputs, 2, true, 1.0);
  REQUIRE(classes.levels.size() == 3);
  for (const ClassLevel& level : classes.levels) CHECK(level.step.rows == replaced.num_nodes());
}

TEST_CASE("ColourClasses.ManyClassesKeepTheNodePath") {
  const std::vector<PreparedGraph> graphs = {
      PrepareGraph(RandomGraph(200, 600, 9), Aggregation::kSumWithSelf)};
  const GraphBatch batch = MakeBatch(graphs, {0}, {});
  CHECK(BuildColourClasses(batch, batch.inputs, 4, true, GinModel::kMaxClassShare).levels.empty());
  CHECK(BuildColourClasses(batch, batch.inputs, 4, true, 1.0).levels.size() == 5);
}
