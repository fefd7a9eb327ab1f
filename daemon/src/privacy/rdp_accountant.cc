#include "privacy/rdp_accountant.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ldpgraph {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// log(exp(a) + exp(b)) without overflow.
double LogAdd(double a, double b) {
  if (a == -kInf) return b;
  if (b == -kInf) return a;
  const double hi = std::max(a, b);
  return hi + std::log1p(std::exp(-std::fabs(a - b)));
}

// log(erfc(x)), also where erfc(x) underflows (x beyond about 26): the
// asymptotic expansion erfc(x) = e^(-x^2) / (x sqrt(pi)) (1 - 1/(2x^2) + 3/(4x^4) - 15/(8x^6) ...).
double LogErfc(double x) {
  if (x < 20) return std::log(std::erfc(x));
  const double r = 1 / (x * x);
  return -x * x - std::log(x) - 0.5 * std::log(M_PI) + std::log(1 - r / 2 + 3 * r * r / 4 - 15 * r * r * r / 8);
}

// log A_a for an integer order: the binomial sum, term by term in logs.
double LogAInteger(double s, double q, int order) {
  double log_a = -kInf;
  for (int k = 0; k <= order; ++k) {
    const double log_choose = std::lgamma(order + 1.0) - std::lgamma(k + 1.0) - std::lgamma(order - k + 1.0);
    log_a = LogAdd(log_a, log_choose + (order - k) * std::log1p(-q) + k * std::log(q) +
                              (static_cast<double>(k) * k - k) / (2 * s * s));
  }
  return log_a;
}

// log A_a for a fractional order: A = A1 + A2, two series over i >= 0 whose
// generalised binomial coefficients C(a, i) change sign once i passes a;
// positive and negative terms are summed apart, in logs.
double LogAFractional(double s, double q, double order) {
  const double z0 = s * s * std::log(1 / q - 1) + 0.5;
  const double log_q = std::log(q), log_1mq = std::log1p(-q), root2s = std::sqrt(2.0) * s;
  double log_positive = -kInf, log_negative = -kInf;
  double log_coef = 0;  // log |C(a, i)|
  double sign = 1;
  for (int i = 0; i < 100000; ++i) {
    if (i > 0) {
      const double factor = (order - i + 1) / i;
      log_coef += std::log(std::fabs(factor));
      if (factor < 0) sign = -sign;
    }
    const double j = order - i;
    const double term1 = log_coef + j * log_1mq + i * log_q + (static_cast<double>(i) * i - i) / (2 * s * s) +
                         std::log(0.5) + LogErfc((i - z0) / root2s);
    const double term2 = log_coef + i * log_1mq + j * log_q + (j * j - j) / (2 * s * s) + std::log(0.5) +
                         LogErfc((z0 - j) / root2s);
    const double term = LogAdd(term1, term2);
    if (sign > 0) {
      log_positive = LogAdd(log_positive, term);
    } else {
      log_negative = LogAdd(log_negative, term);
    }
    // A >= 1: once past the order (where the terms decay), stop at terms below e^-40.
    if (i > order + 1 && term < -40) break;
  }
  if (log_negative >= log_positive) return kInf;  // lost to cancellation: no bound from this order
  return log_positive + std::log1p(-std::exp(log_negative - log_positive));
}

std::vector<double> MakeOrders() {
  std::vector<double> orders;
  for (int tenth = 11; tenth < 110; ++tenth) orders.push_back(tenth / 10.0);
  for (int a = 11; a <= 64; ++a) orders.push_back(a);
  for (double a : {80.0, 96.0, 128.0, 192.0, 256.0, 512.0, 1024.0}) orders.push_back(a);
  return orders;
}

Status CheckRelease(const GaussianRelease& r) {
  if (!(r.noise_multiplier > 0) || !std::isfinite(r.noise_multiplier)) {
    return Status::InvalidArgument("the noise multiplier must be positive and finite");
  }
  if (!(r.sampling_rate > 0 && r.sampling_rate <= 1)) return Status::InvalidArgument("the sampling rate must be in (0, 1]");
  if (r.count < 0) return Status::InvalidArgument("the number of releases must not be negative");
  return Status::Ok();
}

}  // namespace

double GaussianRdp(double noise_multiplier, double order) {
  return order / (2 * noise_multiplier * noise_multiplier);
}

double SubsampledGaussianRdp(double noise_multiplier, double sampling_rate, double order) {
  if (sampling_rate >= 1) return GaussianRdp(noise_multiplier, order);
  const double log_a = order == std::floor(order)
                           ? LogAInteger(noise_multiplier, sampling_rate, static_cast<int>(order))
                           : LogAFractional(noise_multiplier, sampling_rate, order);
  return log_a / (order - 1);
}

const std::vector<double>& RdpAccountant::Orders() {
  static const std::vector<double> orders = MakeOrders();
  return orders;
}

RdpAccountant::RdpAccountant() : rdp_(Orders().size(), 0.0) {}

Status RdpAccountant::Add(const GaussianRelease& r) {
  LDPGRAPH_RETURN_IF_ERROR(CheckRelease(r));
  if (r.count == 0) return Status::Ok();
  const std::vector<double>& orders = Orders();
  for (std::size_t i = 0; i < orders.size(); ++i) {
    rdp_[i] += static_cast<double>(r.count) * SubsampledGaussianRdp(r.noise_multiplier, r.sampling_rate, orders[i]);
  }
  return Status::Ok();
}

Result<double> RdpAccountant::Epsilon(double delta, RdpConversion conversion, double* order) const {
  if (!(delta > 0 && delta < 1)) return Status::InvalidArgument("delta must be in (0, 1)");
  const std::vector<double>& orders = Orders();
  double best = kInf, best_order = orders.front();
  for (std::size_t i = 0; i < orders.size(); ++i) {
    const double a = orders[i];
    const double eps = conversion == RdpConversion::kClassic
                           ? rdp_[i] + std::log(1 / delta) / (a - 1)
                           : rdp_[i] + std::log((a - 1) / a) - (std::log(delta) + std::log(a)) / (a - 1);
    if (eps < best) {
      best = eps;
      best_order = a;
    }
  }
  if (order != nullptr) *order = best_order;
  return std::max(best, 0.0);
}

Result<double> CalibrateNoiseMultiplier(const std::function<std::vector<GaussianRelease>(double)>& releases,
                                        double epsilon, double delta) {
  if (!(epsilon > 0) || !std::isfinite(epsilon)) return Status::InvalidArgument("epsilon must be positive and finite");
  if (!(delta > 0 && delta < 1)) return Status::InvalidArgument("delta must be in (0, 1)");
  auto epsilon_at = [&](double s) -> Result<double> {
    RdpAccountant accountant;
    for (const GaussianRelease& r : releases(s)) LDPGRAPH_RETURN_IF_ERROR(accountant.Add(r));
    return accountant.Epsilon(delta);
  };
  // A bracket [lo, hi] with epsilon(hi) <= target < epsilon(lo), by doubling, then bisection in log s.
  double lo = 1, hi = 1;
  Result<double> at_one = epsilon_at(1);
  if (!at_one.ok()) return at_one.status();
  if (*at_one > epsilon) {
    for (;;) {
      lo = hi;
      hi *= 2;
      if (hi > 1e6) return Status::OutOfRange("no noise multiplier up to 10^6 reaches epsilon " + std::to_string(epsilon));
      Result<double> e = epsilon_at(hi);
      if (!e.ok()) return e.status();
      if (*e <= epsilon) break;
    }
  } else {
    for (;;) {
      hi = lo;
      lo /= 2;
      if (lo < 1e-6) return hi;  // any noise at all meets the target
      Result<double> e = epsilon_at(lo);
      if (!e.ok()) return e.status();
      if (*e > epsilon) break;
    }
  }
  while (hi / lo > 1 + 1e-6) {
    const double mid = std::sqrt(lo * hi);
    Result<double> e = epsilon_at(mid);
    if (!e.ok()) return e.status();
    (*e <= epsilon ? hi : lo) = mid;
  }
  return hi;
}

}  // namespace ldpgraph
