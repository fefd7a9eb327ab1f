// DP-SGD's step put to an empirical privacy test. One step on a full batch
// releases the clipped gradient sum plus discrete Gaussian noise; on two
// neighbouring batches (one example apart) the released vectors, projected
// on the direction that example moves the sum, may differ on no threshold
// event by more than the accountant's (epsilon, delta) allows (Chernoff
// bounds on both frequencies, Bonferroni over the events). The same test
// refutes the step with its clipping left out. Fixed seeds; each check fails
// a correct step with probability < 1e-6.
#include "train/dp_sgd.h"

#include <doctest/doctest.h>

#include <cmath>
#include <map>

#include "models/mlp.h"
#include "privacy/discrete_gaussian.h"
#include "support/stats.h"

using namespace ldpgraph;
using namespace ldpgraph::testing;

namespace {

using Flat = Eigen::VectorXd;

Flat Gradients(const std::vector<Parameter*>& params) {
  std::vector<double> all;
  for (const Parameter* p : params) {
    for (Eigen::Index i = 0; i < p->grad.size(); ++i) all.push_back(p->grad.data()[i]);
  }
  return Eigen::Map<Flat>(all.data(), static_cast<Eigen::Index>(all.size()));
}

// Whether some event {<released, u> >= c} refutes (epsilon, delta)-DP, where
// the released vector is `sum_a` or `sum_b` plus the step's noise.
bool ThresholdEventRefutes(const std::vector<Parameter*>& params, const Flat& sum_a, const Flat& sum_b,
                           double stddev, double epsilon, double delta, std::uint64_t runs, std::uint64_t seed) {
  const Flat u = (sum_b - sum_a).normalized();
  const double bin = stddev / 16;  // events at a 16th of the noise's scale
  SeededRandomSource rng(seed);
  std::map<std::int64_t, std::pair<std::uint64_t, std::uint64_t>> counts;  // bin -> (a, b)
  for (std::uint64_t i = 0; i < runs; ++i) {
    for (int which = 0; which < 2; ++which) {
      const Flat& sum = which == 0 ? sum_a : sum_b;
      // The release: the step's own noise on a copy of the sum.
      std::size_t at = 0;
      double projection = 0;
      for (Parameter* p : params) {
        Matrix g(p->grad.rows(), p->grad.cols());
        for (Eigen::Index k = 0; k < g.size(); ++k) g.data()[k] = static_cast<float>(sum[static_cast<Eigen::Index>(at + k)]);
        if (Status s = AddDiscreteGaussianNoise(&g, stddev, rng); !s.ok()) FAIL(s.ToString());
        for (Eigen::Index k = 0; k < g.size(); ++k) projection += g.data()[k] * u[static_cast<Eigen::Index>(at + k)];
        at += static_cast<std::size_t>(g.size());
      }
      auto& c = counts[static_cast<std::int64_t>(std::floor(projection / bin))];
      (which == 0 ? c.first : c.second) += 1;
    }
  }
  std::uint64_t tail_a = 0, tail_b = 0;
  const double confidence = 1e-7 / static_cast<double>(counts.size());
  for (auto it = counts.rbegin(); it != counts.rend(); ++it) {
    tail_a += it->second.first;
    tail_b += it->second.second;
    if (ProbabilityLowerBound(tail_b, runs, confidence) >
        std::exp(epsilon) * ProbabilityUpperBound(tail_a, runs, confidence) + delta) {
      return true;
    }
  }
  return false;
}

}  // namespace

TEST_CASE("DpSgd.NoThresholdEventRefutesOneStepsEpsilon") {
  // Three examples of a 2-feature, 2-class linear model; the third, far out,
  // has a gradient far above the clipping norm.
  NodeFeatures features = NodeFeatures::Dense((Matrix(3, 2) << 0.5f, -0.2f, -0.3f, 0.4f, 40.0f, 25.0f).finished());
  const std::vector<int> labels = {0, 1, 1};
  SeededRandomSource init(1);
  Mlp mlp = *Mlp::Create({2, 2, 1, 2, 0.0f, false}, "linear", init);
  mlp.Parameters()[0]->value << 1.0f, -1.0f, 1.0f, -1.0f;  // class 0 favoured far out: a large loss there
  RowModel model{mlp.Parameters(), [&](Tape& t, const std::vector<std::uint32_t>& rows) {
                   return mlp.Forward(t, *t.Own(features.Rows(rows)));
                 }};
  const double clip = 1.0, multiplier = 1.0, delta = 1e-3;
  RdpAccountant accountant;
  REQUIRE(accountant.Add({multiplier, 1.0, 1}).ok());
  const double epsilon = *accountant.Epsilon(delta);
  const double stddev = DpSgdNoiseStddev(model.parameters, multiplier, clip);

  REQUIRE(ClippedGradientSum(model, labels, {0, 1}, clip, 0).ok());
  const Flat without = Gradients(model.parameters);
  REQUIRE(ClippedGradientSum(model, labels, {0, 1, 2}, clip, 0).ok());
  const Flat with = Gradients(model.parameters);
  CHECK((with - without).norm() == doctest::Approx(clip).epsilon(1e-4));
  CHECK_FALSE(ThresholdEventRefutes(model.parameters, without, with, stddev, epsilon, delta, 400000, 1));

  // Without clipping the far example moves the sum by far more than C.
  REQUIRE(ClippedGradientSum(model, labels, {0, 1, 2}, 1e9, 0).ok());
  const Flat unclipped = Gradients(model.parameters);
  REQUIRE(ClippedGradientSum(model, labels, {0, 1}, 1e9, 0).ok());
  const Flat unclipped_without = Gradients(model.parameters);
  CHECK((unclipped - unclipped_without).norm() > 5 * clip);
  CHECK(ThresholdEventRefutes(model.parameters, unclipped_without, unclipped, stddev, epsilon, delta, 400000, 2));
}
