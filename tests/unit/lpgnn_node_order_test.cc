// TrainLpgnn's renumbering (LpgnnOptions::node_order): users renumbered by
// reverse Cuthill-McKee or by degree, each keeping her reports, labels,
// split and dropout masks, learn what the first numbering learns, up to
// float rounding: the same epochs, accuracies and weights. Users in a
// random arrival order, as a daemon numbers them, on a generated social
// graph with multi-bit features and randomized labels (factored, and
// packed where the CPU has AMX tiles), GCN and GraphSAGE.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "dataset/generators.h"
#include "engine/permute_rows.h"
#include "graph/node_order.h"
#include "ldpgraph/random_source.h"
#include "privacy/feature_mechanisms.h"
#include "privacy/label_randomization.h"
#include "train/lpgnn_pipeline.h"
#include "train/task_data.h"

using namespace ldpgraph;

TEST_CASE("LpgnnNodeOrder.RenumberedUsersLearnWhatTheirFirstNumberingLearns") {
  NodeDatasetSpec spec;
  spec.nodes = 800;
  spec.mean_degree = 8;
  spec.features = 60;
  spec.words = 6;
  SeededRandomSource rng(17);
  const GraphDataset ds = SyntheticNodeDataset(spec, rng);
  Result<NodeTaskData> data = MakeNodeTaskData(ds, Aggregation::kMean);
  REQUIRE(data.ok());
  ScaleColumnsToUnit(&data->features);
  Result<NodeFeatures> reports = PerturbFeatures(data->features, FeatureMechanism::kMultiBit, 2.0, 1);
  REQUIRE(reports.ok());
  std::vector<int> labels = data->labels;
  REQUIRE(RandomizeLabels(data->classes, 2.0, 2, &labels).ok());
  // The generator numbers users class by class: shuffled first, as they arrive.
  std::vector<std::uint32_t> arrival(ds.graphs[0].num_nodes());
  std::iota(arrival.begin(), arrival.end(), 0u);
  SeededRandomSource shuffle(3);
  for (std::size_t i = arrival.size(); i > 1; --i) std::swap(arrival[i - 1], arrival[shuffle.NextU64() % i]);
  const NodePermutation arrived = NodePermutation::FromOrder(arrival);
  const CsrGraph graph = PermuteGraph(ds.graphs[0], arrived);
  const NodeFeatures features = PermuteRows(*reports, arrived.old_of_new);
  const std::vector<int> noisy = PermuteValues(labels, arrived), truth = PermuteValues(data->labels, arrived);
  const Split first = StratifiedSplit(data->labels, 0.5, 0.25, 0);
  LpgnnInputs in;
  in.graph = &graph;
  in.features = &features;
  in.labels = &noisy;
  in.test_labels = &truth;
  in.classes = data->classes;
  in.label_epsilon = 2.0;
  in.split = {RenumberIds(first.train, arrived), RenumberIds(first.val, arrived), RenumberIds(first.test, arrived)};
  for (NodeGnnKind kind : {NodeGnnKind::kGcn, NodeGnnKind::kSage}) {
    LpgnnOptions o;
    o.kind = kind;
    o.label_method = LabelMethod::kForwardCorrection;
    o.kx_choices = {2};
    o.dense_input_values = 0;  // factored, as at a daemon's scale
    o.train.max_epochs = 40;
    o.train.early_stop_from = 15;
    int epochs[3] = {0, 0, 0};
    std::vector<LpgnnRun> runs;
    const NodeOrder orders[3] = {NodeOrder::kAsGiven, NodeOrder::kRcm, NodeOrder::kDegree};
    for (int i = 0; i < 3; ++i) {
      o.node_order = orders[i];
      o.node_order_from = 0;  // at any size
      o.on_progress = [&epochs, i](const std::string&) { ++epochs[i]; };
      Result<LpgnnRun> run = TrainLpgnn(in, o);
      REQUIRE(run.ok());
      runs.push_back(std::move(*run));
    }
    for (int i = 1; i < 3; ++i) {
      CAPTURE(static_cast<int>(kind));
      CAPTURE(NodeOrderName(orders[i]));
      CHECK(epochs[i] == epochs[0]);
      CHECK(runs[i].kx == runs[0].kx);
      CHECK(runs[i].val_accuracy == doctest::Approx(runs[0].val_accuracy).epsilon(0.01));
      CHECK(runs[i].test_accuracy == doctest::Approx(runs[0].test_accuracy).epsilon(0.01));
      const std::vector<Parameter*> a = runs[0].model->Parameters(), b = runs[i].model->Parameters();
      REQUIRE(a.size() == b.size());
      for (std::size_t k = 0; k < a.size(); ++k) {
        const float scale = std::max(1.0f, a[k]->value.cwiseAbs().maxCoeff());
        CHECK((a[k]->value - b[k]->value).cwiseAbs().maxCoeff() < 0.02f * scale);
      }
    }
  }
}

TEST_CASE("LpgnnNodeOrder.SmallGraphsKeepTheirNumberingByDefault") {
  const LpgnnOptions o;
  CHECK(o.node_order == NodeOrder::kRcm);
  CHECK(o.node_order_from == std::int64_t{1} << 18);
}
