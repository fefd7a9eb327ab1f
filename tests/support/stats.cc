#include "support/stats.h"

#include <cmath>

namespace ldpgraph {
namespace testing {
namespace {

// Regularized lower incomplete gamma P(a, x) by its series (x < a + 1).
double GammaPSeries(double a, double x) {
  double term = 1.0 / a, sum = term;
  for (int n = 1; n < 100000; ++n) {
    term *= x / (a + n);
    sum += term;
    if (std::fabs(term) < std::fabs(sum) * 1e-15) break;
  }
  return sum * std::exp(-x + a * std::log(x) - std::lgamma(a));
}

// Regularized upper incomplete gamma Q(a, x) by Lentz's continued fraction (x >= a + 1).
double GammaQFraction(double a, double x) {
  const double tiny = 1e-300;
  double b = x + 1.0 - a, c = 1.0 / tiny, d = 1.0 / b, h = d;
  for (int i = 1; i < 100000; ++i) {
    const double an = -i * (i - a);
    b += 2.0;
    d = an * d + b;
    if (std::fabs(d) < tiny) d = tiny;
    c = b + an / c;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1.0 / d;
    const double delta = d * c;
    h *= delta;
    if (std::fabs(delta - 1.0) < 1e-15) break;
  }
  return std::exp(-x + a * std::log(x) - std::lgamma(a)) * h;
}

double Kl(double q, double p) {  // KL(Bernoulli(q) || Bernoulli(p))
  auto term = [](double a, double b) { return a == 0.0 ? 0.0 : a * std::log(a / b); };
  return term(q, p) + term(1.0 - q, 1.0 - p);
}

}  // namespace

double ChiSquareSurvival(double x, double dof) {
  if (x <= 0.0) return 1.0;
  const double a = dof / 2.0, y = x / 2.0;
  return y < a + 1.0 ? 1.0 - GammaPSeries(a, y) : GammaQFraction(a, y);
}

double ChiSquarePValue(const std::vector<std::uint64_t>& observed,
                       const std::vector<double>& probabilities, double min_expected) {
  std::uint64_t total = 0;
  for (auto o : observed) total += o;
  double stat = 0.0, pooled_obs = 0.0, pooled_exp = 0.0;
  int cells = 0;
  for (std::size_t i = 0; i < observed.size(); ++i) {
    const double e = probabilities[i] * static_cast<double>(total);
    if (e < min_expected) {
      pooled_obs += static_cast<double>(observed[i]);
      pooled_exp += e;
      continue;
    }
    const double diff = static_cast<double>(observed[i]) - e;
    stat += diff * diff / e;
    ++cells;
  }
  if (pooled_exp > 0.0) {
    const double diff = pooled_obs - pooled_exp;
    stat += diff * diff / std::fmax(pooled_exp, 1e-12);
    ++cells;
  }
  if (cells < 2) return 1.0;
  return ChiSquareSurvival(stat, cells - 1);
}

double NormalTwoSidedPValue(double z) { return std::erfc(std::fabs(z) / std::sqrt(2.0)); }

double ProbabilityUpperBound(std::uint64_t k, std::uint64_t n, double delta) {
  const double q = static_cast<double>(k) / static_cast<double>(n);
  const double budget = std::log(1.0 / delta) / static_cast<double>(n);
  double lo = q, hi = 1.0;
  for (int i = 0; i < 200; ++i) {
    const double mid = (lo + hi) / 2.0;
    (Kl(q, mid) > budget ? hi : lo) = mid;
  }
  return hi;
}

double ProbabilityLowerBound(std::uint64_t k, std::uint64_t n, double delta) {
  const double q = static_cast<double>(k) / static_cast<double>(n);
  const double budget = std::log(1.0 / delta) / static_cast<double>(n);
  double lo = 0.0, hi = q;
  for (int i = 0; i < 200; ++i) {
    const double mid = (lo + hi) / 2.0;
    (Kl(q, mid) > budget ? lo : hi) = mid;
  }
  return lo;
}

}  // namespace testing
}  // namespace ldpgraph
