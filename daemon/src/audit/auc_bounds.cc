#include "audit/auc_bounds.h"

#include <algorithm>
#include <cmath>

#include "audit/binomial_bounds.h"

namespace ldpgraph {

double MaxAucUnderDp(double epsilon, double delta) {
  if (std::isinf(epsilon) || delta >= 1) return 1.0;
  // The bounding curve is e^eps x + delta up to x* = (1 - delta) / (e^eps + 1),
  // then 1 - e^-eps (1 - delta - x) up to 1 - delta, then 1.
  const double e = std::exp(epsilon);
  const double x = (1 - delta) / (e + 1);
  const double rest = 1 - delta - x;
  const double first = e * x * x / 2 + delta * x;
  const double second = rest - rest * rest / (2 * e);
  return std::min(1.0, first + second + delta);
}

DpGuarantee GroupPrivacy(double epsilon, double delta, int k) {
  return {k * epsilon, k * std::exp((k - 1) * epsilon) * delta};
}

AucInterval AucConfidenceInterval(double auc, std::uint64_t positives, std::uint64_t negatives, double z) {
  if (positives == 0 || negatives == 0) return {0, 1};
  const double a = auc, n1 = static_cast<double>(positives), n2 = static_cast<double>(negatives);
  const double q1 = a / (2 - a), q2 = 2 * a * a / (1 + a);
  const double variance = (a * (1 - a) + (n1 - 1) * (q1 - a * a) + (n2 - 1) * (q2 - a * a)) / (n1 * n2);
  const double half = z * std::sqrt(std::max(variance, 0.0));
  const std::uint64_t m = std::min(positives, negatives);
  const auto k = static_cast<std::uint64_t>(std::llround(std::clamp(a, 0.0, 1.0) * static_cast<double>(m)));
  const double alpha = std::erfc(z / std::sqrt(2.0)) / 2;  // one end
  return {std::max(0.0, std::min(a - half, BinomialLowerBound(k, m, alpha))),
          std::min(1.0, std::max(a + half, BinomialUpperBound(k, m, alpha)))};
}

}  // namespace ldpgraph
