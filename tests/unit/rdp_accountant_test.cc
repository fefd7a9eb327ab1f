// The RDP accountant against values derived independently: the plain
// Gaussian's closed-form optimum, the exact (epsilon, delta) curve of the
// Gaussian mechanism (which no valid accountant may undercut), and DP-SGD
// figures published with TensorFlow Privacy; and its noise calibration.
#include "privacy/rdp_accountant.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

using namespace ldpgraph;

namespace {

double Phi(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

// The exact epsilon of a Gaussian mechanism with L2 sensitivity 1 and noise
// s at delta (Balle and Wang 2018, Thm. 8): the smallest epsilon with
// Phi(1/(2s) - eps s) - e^eps Phi(-1/(2s) - eps s) <= delta, by bisection.
double ExactGaussianEpsilon(double s, double delta) {
  auto delta_at = [s](double eps) { return Phi(1 / (2 * s) - eps * s) - std::exp(eps) * Phi(-1 / (2 * s) - eps * s); };
  double lo = 0, hi = 100;
  for (int i = 0; i < 200; ++i) {
    const double mid = (lo + hi) / 2;
    (delta_at(mid) <= delta ? hi : lo) = mid;
  }
  return hi;
}

double EpsilonOf(const std::vector<GaussianRelease>& releases, double delta,
                 RdpConversion conversion = RdpConversion::kTight) {
  RdpAccountant accountant;
  for (const GaussianRelease& r : releases) REQUIRE(accountant.Add(r).ok());
  Result<double> eps = accountant.Epsilon(delta, conversion);
  REQUIRE(eps.ok());
  return *eps;
}

}  // namespace

TEST_CASE("RdpAccountant.GaussianMeetsItsClosedFormOptimum") {
  // K releases of RDP a / (2 s^2) each, classic conversion: over real orders
  // the minimum of K a / (2 s^2) + log(1/delta) / (a - 1) is at
  // a* = 1 + s sqrt(2 log(1/delta) / K), where it is K / (2 s^2) + sqrt(2 K log(1/delta)) / s.
  struct Case {
    double s;
    std::int64_t k;
    double delta;
  };
  for (const Case& c : {Case{1, 1, 1e-5}, Case{2, 10, 1e-5}, Case{5, 4, 1e-6}, Case{0.8, 1, 1e-3}, Case{20, 2, 1e-5}}) {
    const double log_inv = std::log(1 / c.delta);
    const double optimum = c.k / (2 * c.s * c.s) + std::sqrt(2 * c.k * log_inv) / c.s;
    const double eps = EpsilonOf({{c.s, 1.0, c.k}}, c.delta, RdpConversion::kClassic);
    CAPTURE(c.s);
    CAPTURE(c.k);
    CHECK(eps >= optimum * (1 - 1e-12));  // a minimum over a subset of the real orders
    CHECK(eps <= optimum * 1.01);
  }
}

TEST_CASE("RdpAccountant.NeverBelowTheExactGaussianEpsilon") {
  // K Gaussian releases of noise s are one of noise s / sqrt(K), whose exact
  // epsilon is known: an accountant below it would be claiming privacy that
  // is not there. RDP's conversions cost something, but not much.
  for (double s : {0.7, 1.0, 2.0, 5.0, 12.0}) {
    for (std::int64_t k : {1, 4, 16}) {
      const double delta = 1e-5;
      const double exact = ExactGaussianEpsilon(s / std::sqrt(static_cast<double>(k)), delta);
      const double tight = EpsilonOf({{s, 1.0, k}}, delta);
      const double classic = EpsilonOf({{s, 1.0, k}}, delta, RdpConversion::kClassic);
      CAPTURE(s);
      CAPTURE(k);
      CHECK(tight >= exact);
      CHECK(tight <= classic);
      CHECK(tight <= 1.35 * exact);
    }
  }
}

TEST_CASE("RdpAccountant.SubsampledGaussianMatchesPublishedDpSgdFigures") {
  // TensorFlow Privacy's MNIST tutorial table (its README): N = 60000, batch
  // 256, delta 1e-5, ceil(epochs N / batch) steps, the classic conversion.
  struct Case {
    double sigma;
    int epochs;
    double published;
  };
  const double q = 256.0 / 60000;
  for (const Case& c : {Case{1.3, 15, 1.19}, Case{1.1, 60, 3.01}, Case{0.7, 45, 7.10}}) {
    const auto steps = static_cast<std::int64_t>(std::ceil(c.epochs * 60000.0 / 256));
    const double eps = EpsilonOf({{c.sigma, q, steps}}, 1e-5, RdpConversion::kClassic);
    CAPTURE(c.sigma);
    CHECK(eps == doctest::Approx(c.published).epsilon(0.01));
    CHECK(EpsilonOf({{c.sigma, q, steps}}, 1e-5) < eps);  // the tight conversion gives less
  }
}

TEST_CASE("RdpAccountant.IntegerAndFractionalFormulasAgree") {
  // The finite binomial sum (integer orders) and the two series (fractional
  // ones) are different formulas for the same function: just off an integer
  // order they must meet. Full sampling is the plain Gaussian.
  for (double s : {0.6, 1.0, 4.0}) {
    for (double q : {0.001, 0.01, 0.2, 0.7}) {
      for (int order : {2, 3, 8, 20}) {
        const double integer = SubsampledGaussianRdp(s, q, order);
        const double fractional = SubsampledGaussianRdp(s, q, order + 1e-9);
        CAPTURE(s);
        CAPTURE(q);
        CAPTURE(order);
        CHECK(fractional == doctest::Approx(integer).epsilon(1e-5));
        CHECK(integer <= GaussianRdp(s, order) * (1 + 1e-12));  // sampling only helps
      }
    }
    CHECK(SubsampledGaussianRdp(s, 1.0, 3.5) == GaussianRdp(s, 3.5));
  }
}

TEST_CASE("RdpAccountant.ComposesByAdding") {
  RdpAccountant twice, once;
  REQUIRE(twice.Add({1.5, 0.01, 300}).ok());
  REQUIRE(twice.Add({1.5, 0.01, 300}).ok());
  REQUIRE(once.Add({1.5, 0.01, 600}).ok());
  CHECK(*twice.Epsilon(1e-5) == doctest::Approx(*once.Epsilon(1e-5)).epsilon(1e-12));
  REQUIRE(once.Add({2.0, 1.0, 0}).ok());  // no release: no cost
  CHECK(*once.Epsilon(1e-5) == doctest::Approx(*twice.Epsilon(1e-5)).epsilon(1e-12));
}

TEST_CASE("RdpAccountant.CalibrationFindsTheSmallestNoiseForTheTarget") {
  // GAP's two kinds of release: K = 3 noisy aggregations, and those plus
  // DP-SGD steps of the same multiplier.
  const std::function<std::vector<GaussianRelease>(double)> edge = [](double s) {
    return std::vector<GaussianRelease>{{s, 1.0, 3}};
  };
  const std::function<std::vector<GaussianRelease>(double)> node = [](double s) {
    return std::vector<GaussianRelease>{{s, 1.0, 3}, {s, 0.05, 2000}};
  };
  for (const auto* releases : {&edge, &node}) {
    for (double target : {0.5, 1.0, 4.0, 8.0}) {
      Result<double> s = CalibrateNoiseMultiplier(*releases, target, 1e-5);
      REQUIRE_MESSAGE(s.ok(), s.status().ToString());
      const double reached = EpsilonOf((*releases)(*s), 1e-5);
      CAPTURE(target);
      CHECK(reached <= target);
      CHECK(reached >= 0.99 * target);                        // the 1%
      CHECK(EpsilonOf((*releases)(*s * 0.999), 1e-5) > target);  // and no less noise would do
    }
  }
  Result<double> strong = CalibrateNoiseMultiplier(edge, 0.5, 1e-5), weak = CalibrateNoiseMultiplier(edge, 8, 1e-5);
  CHECK(*strong > *weak);
}

TEST_CASE("RdpAccountant.RejectsBadInputs") {
  RdpAccountant a;
  const double nan = std::nan("");
  for (const GaussianRelease& bad : {GaussianRelease{0, 1, 1}, GaussianRelease{-1, 1, 1}, GaussianRelease{nan, 1, 1},
                                     GaussianRelease{std::numeric_limits<double>::infinity(), 1, 1}, GaussianRelease{1, 0, 1},
                                     GaussianRelease{1, 1.5, 1}, GaussianRelease{1, nan, 1},
                                     GaussianRelease{1, 1, -1}}) {
    CHECK(a.Add(bad).code() == StatusCode::kInvalidArgument);
  }
  CHECK(*a.Epsilon(1e-5) < 0.02);  // nothing was added
  for (double delta : {0.0, 1.0, -0.1, nan}) CHECK(a.Epsilon(delta).status().code() == StatusCode::kInvalidArgument);
  const std::function<std::vector<GaussianRelease>(double)> one = [](double s) {
    return std::vector<GaussianRelease>{{s, 1.0, 1}};
  };
  for (double eps : {0.0, -1.0, nan, std::numeric_limits<double>::infinity()}) {
    CHECK(CalibrateNoiseMultiplier(one, eps, 1e-5).status().code() == StatusCode::kInvalidArgument);
  }
  CHECK(CalibrateNoiseMultiplier(one, 1, 0).status().code() == StatusCode::kInvalidArgument);
  const std::function<std::vector<GaussianRelease>(double)> broken = [](double s) {
    return std::vector<GaussianRelease>{{s, 2.0, 1}};
  };
  CHECK(CalibrateNoiseMultiplier(broken, 1, 1e-5).status().code() == StatusCode::kInvalidArgument);
}
