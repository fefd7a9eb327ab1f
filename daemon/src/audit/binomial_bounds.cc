#include "audit/binomial_bounds.h"

#include <cmath>

namespace ldpgraph {
namespace {

// The continued fraction of I_x(a, b) for x < (a + 1) / (a + b + 2), where it
// converges fast: terms d_{2m+1} = -(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1)),
// d_{2m} = m (b - m) x / ((a + 2m - 1)(a + 2m)).
double BetaContinuedFraction(double a, double b, double x) {
  constexpr double kTiny = 1e-300;
  constexpr double kEps = 1e-15;
  double c = 1.0;
  double d = 1.0 - (a + b) * x / (a + 1.0);
  if (std::fabs(d) < kTiny) d = kTiny;
  d = 1.0 / d;
  double f = d;
  for (int m = 1; m <= 10000; ++m) {
    const double two_m = 2.0 * m;
    double num = m * (b - m) * x / ((a + two_m - 1.0) * (a + two_m));
    d = 1.0 + num * d;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = 1.0 + num / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1.0 / d;
    f *= d * c;
    num = -(a + m) * (a + b + m) * x / ((a + two_m) * (a + two_m + 1.0));
    d = 1.0 + num * d;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = 1.0 + num / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1.0 / d;
    const double step = d * c;
    f *= step;
    if (std::fabs(step - 1.0) < kEps) break;
  }
  return f;
}

// The p at which increasing `cdf` reaches `target`, by bisection on [0, 1].
template <typename Cdf>
double Invert(const Cdf& cdf, double target) {
  double lo = 0.0, hi = 1.0;
  for (int i = 0; i < 200 && hi - lo > 1e-17; ++i) {
    const double mid = 0.5 * (lo + hi);
    (cdf(mid) < target ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

}  // namespace

double RegularizedIncompleteBeta(double a, double b, double x) {
  if (x <= 0.0) return 0.0;
  if (x >= 1.0) return 1.0;
  const double log_front =
      std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x);
  const double front = std::exp(log_front);
  if (x < (a + 1.0) / (a + b + 2.0)) return front * BetaContinuedFraction(a, b, x) / a;
  return 1.0 - front * BetaContinuedFraction(b, a, 1.0 - x) / b;
}

double BinomialLowerBound(std::uint64_t k, std::uint64_t n, double alpha) {
  if (k == 0) return 0.0;
  const double a = static_cast<double>(k), b = static_cast<double>(n - k + 1);
  return Invert([&](double p) { return RegularizedIncompleteBeta(a, b, p); }, alpha);
}

double BinomialUpperBound(std::uint64_t k, std::uint64_t n, double alpha) {
  if (k == n) return 1.0;
  const double a = static_cast<double>(k + 1), b = static_cast<double>(n - k);
  return Invert([&](double p) { return RegularizedIncompleteBeta(a, b, p); }, 1.0 - alpha);
}

}  // namespace ldpgraph
