// Binomial(n, p) without O(n) work.
#include <cmath>

#include "ldpgraph/samplers.h"

namespace ldpgraph {
namespace {

// Inversion by sequential search (Kachitvichyanukul and Schmeiser's BINV).
// Expected cost O(n p); used only when n p < 10.
std::uint64_t BinomialInversion(RandomSource& rng, std::uint64_t n, double p) {
  const double q = 1.0 - p;
  const double s = p / q;
  const double a = (static_cast<double>(n) + 1.0) * s;
  const double r0 = std::exp(static_cast<double>(n) * std::log1p(-p));
  // The pmf is below 1e-300 long before this many steps; a cap only guards
  // against rounding leaving u slightly above the summed mass.
  const double cap = std::fmin(static_cast<double>(n), 110.0 + 20.0 * static_cast<double>(n) * p);
  for (;;) {
    double u = UniformUnit(rng);
    double r = r0;
    std::uint64_t x = 0;
    while (u > r) {
      u -= r;
      ++x;
      if (static_cast<double>(x) > cap) break;
      r *= a / static_cast<double>(x) - s;
    }
    if (static_cast<double>(x) <= cap) return x;
  }
}

// log(k!) - [(k + 1/2) log(k + 1) - (k + 1) + log(2 pi)/2]: the Stirling
// correction BTRD needs at an integer k >= 0; from k! itself for small k
// (exact in a double; not lgamma, whose 4.5 KB a microcontroller's flash
// cannot spare), the series for large k.
double StirlingCorrection(double k) {
  if (k < 10.0) {
    double factorial = 1.0;
    for (double i = 2.0; i <= k; i += 1.0) factorial *= i;
    return std::log(factorial) - ((k + 0.5) * std::log(k + 1.0) - (k + 1.0) + 0.5 * std::log(2.0 * M_PI));
  }
  const double r = 1.0 / (k + 1.0);
  const double r2 = r * r;
  return (1.0 / 12.0 - (1.0 / 360.0 - (1.0 / 1260.0) * r2) * r2) * r;
}

// Hormann, "The generation of binomial random variates", J. Statist. Comput.
// Simul. 46 (1993): transformed rejection with decomposition. Needs p <= 1/2
// and n p >= 10. Every candidate is accepted or rejected against the exact pmf
// ratio, so the output is Binomial(n, p), not an approximation.
std::uint64_t BinomialBtrd(RandomSource& rng, std::uint64_t n_int, double p) {
  const double n = static_cast<double>(n_int);
  const double q = 1.0 - p;
  const double spq = std::sqrt(n * p * q);
  const double b = 1.15 + 2.53 * spq;
  const double a = -0.0873 + 0.0248 * b + 0.01 * p;
  const double c = n * p + 0.5;
  const double alpha = (2.83 + 5.1 / b) * spq;
  const double vr = 0.92 - 4.2 / b;
  const double urvr = 0.86 * vr;
  const double m = std::floor((n + 1.0) * p);
  const double r = p / q;
  const double nr = (n + 1.0) * r;
  const double npq = n * p * q;
  const double h = (m + 0.5) * std::log((m + 1.0) / (r * (n - m + 1.0))) +
                   StirlingCorrection(m) + StirlingCorrection(n - m);

  for (;;) {
    double v = UniformUnit(rng);
    double u;
    if (v <= urvr) {  // the box in the centre: accept at once
      u = v / vr - 0.43;
      return static_cast<std::uint64_t>(std::floor((2.0 * a / (0.5 - std::fabs(u)) + b) * u + c));
    }
    if (v >= vr) {
      u = UniformUnit(rng) - 0.5;
    } else {
      u = v / vr - 0.93;
      u = (u < 0 ? -0.5 : 0.5) - u;
      v = UniformUnit(rng) * vr;
    }
    const double us = 0.5 - std::fabs(u);
    const double kf = std::floor((2.0 * a / us + b) * u + c);
    if (kf < 0.0 || kf > n) continue;
    v = v * alpha / (a / (us * us) + b);
    const double km = std::fabs(kf - m);
    if (km <= 15.0) {  // compare with f(k)/f(m) computed by the recurrence
      double f = 1.0;
      if (m < kf) {
        for (double i = m + 1.0; i <= kf; i += 1.0) f *= nr / i - r;
      } else if (m > kf) {
        for (double i = kf + 1.0; i <= m; i += 1.0) v *= nr / i - r;
      }
      if (v <= f) return static_cast<std::uint64_t>(kf);
      continue;
    }
    // Squeeze on log(f(k)/f(m)) before the exact test.
    v = std::log(v);
    const double rho = (km / npq) * (((km / 3.0 + 0.625) * km + 1.0 / 6.0) / npq + 0.5);
    const double t = -km * km / (2.0 * npq);
    if (v < t - rho) return static_cast<std::uint64_t>(kf);
    if (v > t + rho) continue;
    const double nk = n - kf + 1.0;
    const double bound = h + (n + 1.0) * std::log((n - m + 1.0) / nk) +
                         (kf + 0.5) * std::log(nk * r / (kf + 1.0)) - StirlingCorrection(kf) -
                         StirlingCorrection(n - kf);
    if (v <= bound) return static_cast<std::uint64_t>(kf);
  }
}

}  // namespace

std::uint64_t Binomial(RandomSource& rng, std::uint64_t n, double p) {
  if (n == 0 || !(p > 0.0)) return 0;
  if (p >= 1.0) return n;
  // Sample the rarer outcome so that p <= 1/2, as both algorithms require.
  if (p > 0.5) return n - Binomial(rng, n, 1.0 - p);
  if (static_cast<double>(n) * p < 10.0) return BinomialInversion(rng, n, p);
  return BinomialBtrd(rng, n, p);
}

}  // namespace ldpgraph
