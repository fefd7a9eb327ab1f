#include "linkldp/degree_prior.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace ldpgraph {

DegreePrior DegreePrior::Fit(const std::vector<double>& degrees, double floor) {
  DegreePrior prior;
  const std::size_t n = degrees.size();
  prior.beta_.assign(n, 0);
  if (n < 2) return prior;
  const double others = static_cast<double>(n) - 1;
  // Groups: degrees within 1% of each other share a beta.
  std::map<long, std::size_t> bucket_of;
  std::vector<std::size_t> group(n);
  std::vector<double> target_sum, count;
  for (std::size_t i = 0; i < n; ++i) {
    const double d = std::clamp(degrees[i], floor, others * 0.999);
    const long key = std::lround(std::log(d) * 100);
    auto [it, added] = bucket_of.emplace(key, target_sum.size());
    if (added) {
      target_sum.push_back(0);
      count.push_back(0);
    }
    group[i] = it->second;
    target_sum[it->second] += d;
    count[it->second] += 1;
  }
  const std::size_t g = target_sum.size();
  std::vector<double> target(g), beta(g), next(g);
  for (std::size_t a = 0; a < g; ++a) {
    target[a] = target_sum[a] / count[a];
    beta[a] = std::log(target[a] / std::sqrt(others));  // Chung-Lu-like start
  }
  // Expected degree of a member of group a: sum over groups b of count_b
  // (less a's own member) times sigmoid(beta_a + beta_b).
  std::vector<double> exp_minus(g);
  auto sum_term = [&](std::size_t a) {
    double s = 0;
    const double ea = std::exp(beta[a]);
    for (std::size_t b = 0; b < g; ++b) s += count[b] / (exp_minus[b] + ea);
    return s - 1 / (exp_minus[a] + ea);  // not a member's pair with herself
  };
  constexpr int kMaxIterations = 500;
  for (int iteration = 0; iteration < kMaxIterations; ++iteration) {
    double worst = 0;
    for (std::size_t a = 0; a < g; ++a) exp_minus[a] = std::exp(-beta[a]);
    for (std::size_t a = 0; a < g; ++a) {
      const double s = sum_term(a);
      worst = std::max(worst, std::fabs(s * std::exp(beta[a]) - target[a]) / target[a]);
      next[a] = std::log(target[a]) - std::log(s);
    }
    prior.residual_ = worst;
    if (worst < 1e-6) break;
    // Damped: the undamped map can oscillate when a few hubs dominate.
    for (std::size_t a = 0; a < g; ++a) beta[a] = 0.5 * beta[a] + 0.5 * next[a];
  }
  for (std::size_t i = 0; i < n; ++i) prior.beta_[i] = beta[group[i]];
  return prior;
}

double DegreePrior::Probability(std::uint32_t i, std::uint32_t j) const {
  return 1.0 / (1.0 + std::exp(-(beta_[i] + beta_[j])));
}

}  // namespace ldpgraph
