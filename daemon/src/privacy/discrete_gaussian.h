// Gaussian noise without floating-point leaks: the discrete Gaussian on the
// integers (Canonne, Kamath and Steinke, "The discrete Gaussian for
// differential privacy", NeurIPS 2020, Algorithm 3), and real values
// released on a grid of step `granularity` with discrete Gaussian noise in
// grid steps. A textbook Box-Muller sample's low bits depend on the value it
// is added to (as for the Laplace: Mironov, CCS 2012); integer noise on a
// grid has no such bits. The discrete Gaussian of scale s is at least as
// private as the continuous one (CKS Thm. 4: the same rho = D^2 / (2 s^2)
// concentrated DP, so the same Renyi DP a D^2 / (2 s^2)).
#ifndef LDPGRAPH_DAEMON_PRIVACY_DISCRETE_GAUSSIAN_H_
#define LDPGRAPH_DAEMON_PRIVACY_DISCRETE_GAUSSIAN_H_

#include <cstdint>

#include "engine/matrix.h"
#include "ldpgraph/random_source.h"
#include "ldpgraph/samplers.h"
#include "ldpgraph/status.h"

namespace ldpgraph {

// Pr[X = x] proportional to exp(-x^2 / (2 sigma^2)) on the integers.
class DiscreteGaussian {
 public:
  // Errors: kInvalidArgument for sigma not positive and finite, or above 2^30.
  static Result<DiscreteGaussian> Create(double sigma);
  DiscreteGaussian() = default;  // only for Result<>

  // Rejection from a discrete Laplace of scale t = floor(sigma) + 1: at most
  // about 1 + 1/sigma tries on average (CKS Prop. 5). The acceptance
  // probability is a double, so the law is exact to its rounding (1e-16
  // relative); the output is an integer whatever it is.
  std::int64_t Sample(RandomSource& rng) const;
  double sigma() const { return sigma_; }

 private:
  double sigma_ = 1;
  double t_ = 1;  // the discrete Laplace's scale
  DiscreteLaplace laplace_;
};

// The grid the releases use: 2^-20. Fine enough not to matter for the values
// released (unit-norm rows), coarse enough that noise in grid steps has
// sigma / 2^-20 < 2^30 for any sigma up to 1024.
inline constexpr double kNoiseGranularity = 1.0 / (1 << 20);
// The largest standard deviation a release on that grid can draw: 2^30 steps.
inline constexpr double kMaxNoiseStddev = kNoiseGranularity * (1 << 30);

// Every entry of `x` rounded to the grid, then grid steps of discrete
// Gaussian noise of scale stddev / granularity added. Rounding moves two
// neighbouring inputs apart by at most granularity per entry: a release of
// L2 sensitivity D on d columns has sensitivity D + granularity sqrt(d) here,
// which the caller accounts for (RoundedSensitivity).
// Errors: the sampler's, for a bad stddev / granularity.
Status AddDiscreteGaussianNoise(Matrix* x, double stddev, RandomSource& rng,
                                double granularity = kNoiseGranularity);
double RoundedSensitivity(double sensitivity, Eigen::Index columns, double granularity = kNoiseGranularity);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_PRIVACY_DISCRETE_GAUSSIAN_H_
