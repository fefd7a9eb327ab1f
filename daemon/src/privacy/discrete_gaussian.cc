#include "privacy/discrete_gaussian.h"

#include <cmath>

namespace ldpgraph {

Result<DiscreteGaussian> DiscreteGaussian::Create(double sigma) {
  if (!(sigma > 0) || !std::isfinite(sigma) || sigma > 1073741824.0) {
    return Status::InvalidArgument("the discrete Gaussian's sigma must be in (0, 2^30]");
  }
  DiscreteGaussian g;
  g.sigma_ = sigma;
  Result<DiscreteLaplace> laplace = DiscreteLaplace::Create(1 / (std::floor(sigma) + 1));
  if (!laplace.ok()) return laplace.status();
  g.laplace_ = *laplace;
  // The scale the Laplace really has (its epsilon is rounded down to 2^-32):
  // the rejection step gives the discrete Gaussian for any scale t, if it
  // uses the right one.
  g.t_ = 1 / laplace->effective_epsilon();
  return g;
}

std::int64_t DiscreteGaussian::Sample(RandomSource& rng) const {
  const double s2 = sigma_ * sigma_;
  for (;;) {
    const std::int64_t y = laplace_.Sample(rng);
    const double gap = std::fabs(static_cast<double>(y)) - s2 / t_;
    if (Bernoulli(rng, std::exp(-gap * gap / (2 * s2)))) return y;
  }
}

Status AddDiscreteGaussianNoise(Matrix* x, double stddev, RandomSource& rng, double granularity) {
  if (!(granularity > 0)) return Status::InvalidArgument("the noise grid must have a positive step");
  Result<DiscreteGaussian> noise = DiscreteGaussian::Create(stddev / granularity);
  if (!noise.ok()) return noise.status();
  for (Eigen::Index i = 0; i < x->size(); ++i) {
    float& v = x->data()[i];
    const double steps = std::nearbyint(static_cast<double>(v) / granularity);
    v = static_cast<float>((steps + static_cast<double>(noise->Sample(rng))) * granularity);
  }
  return Status::Ok();
}

double RoundedSensitivity(double sensitivity, Eigen::Index columns, double granularity) {
  return sensitivity + granularity * std::sqrt(static_cast<double>(columns));
}

}  // namespace ldpgraph
