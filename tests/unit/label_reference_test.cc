// Label KProp's references and the estimate of how often they are right,
// told from randomized labels alone (train/label_reference.h).
#include <doctest/doctest.h>

#include <cmath>

#include "dataset/generators.h"
#include "ldpgraph/label_rr.h"
#include "privacy/label_randomization.h"
#include "train/label_reference.h"

namespace ldpgraph {
namespace {

struct Case {
  GraphDataset ds;
  std::vector<int> truth, noisy;
  double keep = 0, flip = 0;
};

Case Randomized(double homophily, double epsilon) {
  NodeDatasetSpec spec;
  spec.nodes = 6000;
  spec.mean_degree = 10;
  spec.homophily = homophily;
  spec.features = 0;
  SeededRandomSource rng(3);
  Case c;
  c.ds = SyntheticNodeDataset(spec, rng);
  c.truth.assign(c.ds.node_labels.begin(), c.ds.node_labels.end());
  c.noisy = c.truth;
  REQUIRE(RandomizeLabels(4, epsilon, 9, &c.noisy).ok());
  Result<LabelRandomizer> rr = LabelRandomizer::Create(4, epsilon);
  REQUIRE(rr.ok());
  c.keep = rr->TransitionProbability(0, 0);
  c.flip = rr->TransitionProbability(0, 1);
  return c;
}

// The share of users outside `test` whose reference (their own label where
// nothing propagated) is their true class.
double TrueAccuracy(const std::vector<int>& reference, const Case& c, const std::vector<char>& is_test) {
  double right = 0, users = 0;
  for (std::size_t i = 0; i < reference.size(); ++i) {
    if (is_test[i]) continue;
    users += 1;
    right += (reference[i] >= 0 ? reference[i] : c.noisy[i]) == c.truth[i];
  }
  return right / users;
}

TEST_CASE("LabelReference.TheEstimateFollowsTheTrueAccuracyOfEachPropagation") {
  for (double homophily : {0.8, 0.25}) {  // friends mostly alike; friends no more alike than strangers
    INFO("homophily " << homophily);
    const Case c = Randomized(homophily, 1.0);
    const PreparedGraph graph = PrepareGraph(c.ds.graphs[0], Aggregation::kSymNoSelf);
    std::vector<std::uint32_t> test;
    std::vector<char> is_test(c.truth.size(), 0);
    for (std::uint32_t i = 0; i < c.truth.size(); i += 4) {
      test.push_back(i);
      is_test[i] = 1;
    }
    const std::vector<int> steps = {2, 4, 8};
    const std::vector<double> estimated =
        EstimatedReferenceAccuracy(c.noisy, test, graph, steps, 4, c.keep, c.flip, 1);
    const std::vector<std::vector<int>> references = PropagatedLabels(c.noisy, test, graph, steps, 4);
    for (std::size_t k = 0; k < steps.size(); ++k) {
      const double truth = TrueAccuracy(references[k], c, is_test);
      INFO("steps " << steps[k] << ": estimated " << estimated[k] << ", true " << truth);
      CHECK(estimated[k] <= truth + 0.03);
      if (homophily == 0.8) {
        // Propagated from half the labels, the estimate is a little low.
        CHECK(estimated[k] >= truth - 0.12);
        CHECK(estimated[k] > c.keep + 0.2);  // far better than the raw labels
      } else {
        // What reaches a user from others is chance (0.25); her reference
        // is right about as often as her own label only because KProp's
        // even steps bring her own label back. Keep the raw labels.
        CHECK(estimated[k] < c.keep);
        CHECK(std::fabs(estimated[k] - 0.25) < 0.03);
        CHECK(truth < c.keep + 0.02);
      }
    }
  }
}

}  // namespace
}  // namespace ldpgraph
