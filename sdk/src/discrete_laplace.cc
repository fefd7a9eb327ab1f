// The discrete Laplace sampler, integer arithmetic only.
#include <cmath>
#include <string>

#include "internal/validation.h"
#include "ldpgraph/samplers.h"

namespace ldpgraph {
namespace {

constexpr std::uint64_t kDenominatorBits = 32;
constexpr std::uint64_t kDenominator = std::uint64_t{1} << kDenominatorBits;

// Bernoulli(1/k) for an integer k >= 1.
bool BernoulliOneOver(RandomSource& rng, std::uint64_t k) { return UniformBelow(rng, k) == 0; }

// Bernoulli(exp(-gamma)) for gamma = num / 2^32 in [0, 1]: Canonne, Kamath
// and Steinke's Algorithm 1. Draw A_k ~ Bernoulli(gamma / k) for k = 1, 2, ...
// until one fails; the index of the failure is odd with probability
// exp(-gamma). Bernoulli(num / (2^32 k)) is Bernoulli(1/k) AND a 32-bit
// uniform below num, which keeps every comparison an integer one.
bool BernoulliExpMinus(RandomSource& rng, std::uint64_t num) {
  std::uint64_t k = 1;
  for (;;) {
    const bool a = BernoulliOneOver(rng, k) &&
                   (num == kDenominator || (rng.NextU64() >> kDenominatorBits) < num);
    if (!a) break;
    ++k;
  }
  return (k & 1) == 1;
}

}  // namespace

Result<DiscreteLaplace> DiscreteLaplace::Create(double epsilon) {
  if (std::isnan(epsilon)) return Status::InvalidArgument("epsilon must not be NaN");
  if (std::isinf(epsilon)) return Status::InvalidArgument("epsilon must be finite");
  if (epsilon <= 0.0) {
    return Status::InvalidArgument("epsilon must be positive, got " + internal::FormatDouble(epsilon));
  }
  // Keep X = U + 2^32 V and floor(X / s) comfortably inside 64 bits.
  if (epsilon > 1e6) return Status::InvalidArgument("epsilon above 1e6 is not supported");
  const double scaled = std::floor(std::ldexp(epsilon, kDenominatorBits));
  if (scaled < 1.0) return Status::InvalidArgument("epsilon below 2^-32 is not supported");
  return DiscreteLaplace(static_cast<std::uint64_t>(scaled));
}

double DiscreteLaplace::effective_epsilon() const {
  return std::ldexp(static_cast<double>(numerator_), -static_cast<int>(kDenominatorBits));
}

// Canonne, Kamath and Steinke's Algorithm 2 with scale t/s, t = 2^32 and
// s = numerator_: Pr[Y = y] is proportional to exp(-|y| s / t).
std::int64_t DiscreteLaplace::Sample(RandomSource& rng) const {
  for (;;) {
    const std::uint64_t u = rng.NextU64() >> kDenominatorBits;  // uniform in [0, t)
    if (!BernoulliExpMinus(rng, u)) continue;
    std::uint64_t v = 0;
    while (BernoulliExpMinus(rng, kDenominator)) ++v;  // Geometric(1 - e^-1)
    const std::uint64_t x = u + (v << kDenominatorBits);  // Pr[X = x] ~ exp(-x / t)
    const std::uint64_t y = x / numerator_;               // Pr[Y = y] ~ exp(-y s / t)
    const bool negative = (rng.NextU64() >> 63) != 0;
    if (negative && y == 0) continue;  // 0 would otherwise be counted twice
    return negative ? -static_cast<std::int64_t>(y) : static_cast<std::int64_t>(y);
  }
}

}  // namespace ldpgraph
