#include "linkldp/link_reports.h"

#include <algorithm>
#include <cmath>

namespace ldpgraph {
namespace {

bool IsProbability(double x) { return x >= 0 && x <= 1; }

struct DegreeEvidence {
  double value = 0;
  double variance = INFINITY;  // infinity: no evidence
};

// What the report's length says of the degree. Every id is in the report
// independently: a friend with probability t1, anyone else with t0, so
// E[length] = t0 (n - 1) + (t1 - t0) d.
DegreeEvidence FromLength(std::size_t length, std::uint32_t n, double t1, double t0) {
  if (!(t1 > t0)) return {};
  const double others = static_cast<double>(n) - 1;
  DegreeEvidence e;
  e.value = (static_cast<double>(length) - t0 * others) / (t1 - t0);
  // Variance at d = 0; the friends' own Bernoulli terms add at most d/4.
  e.variance = others * t0 * (1 - t0) / ((t1 - t0) * (t1 - t0));
  return e;
}

// DPRR's d*: q = d* / (d* (2p - 1) + (n - 1)(1 - p)) with d* clamped to
// [0, n - 1] solved for d*. At q = 0 or 1 the clamps hide the value.
DegreeEvidence FromDprrSampling(const NoisyEdges& r, std::uint32_t n) {
  if (!(r.q > 0 && r.q < 1)) return {};
  const double others = static_cast<double>(n) - 1;
  DegreeEvidence e;
  e.value = r.q * others * (1 - r.p) / (1 - r.q * (2 * r.p - 1));
  e.variance = DiscreteLaplaceVariance(r.eps1);
  return e;
}

}  // namespace

double DiscreteLaplaceVariance(double eps1) {
  const double a = std::exp(-eps1);
  return 2 * a / ((1 - a) * (1 - a));
}

LinkReportsBuilder::LinkReportsBuilder(std::uint32_t num_users)
    : n_(num_users), rows_(num_users), seen_(num_users, false) {
  out_.keep_edge.assign(num_users, 0);
  out_.keep_non_edge.assign(num_users, 0);
  out_.degree.assign(num_users, 0);
  out_.degree_variance.assign(num_users, 0);
}

Status LinkReportsBuilder::Add(std::uint32_t user, const NoisyEdges& r) {
  if (user >= n_) return Status::OutOfRange("user " + std::to_string(user) + " is not below n = " + std::to_string(n_));
  if (seen_[user]) return Status::InvalidArgument("user " + std::to_string(user) + " reported twice");
  for (std::size_t k = 0; k < r.neighbours.size(); ++k) {
    const std::uint32_t v = r.neighbours[k];
    if (v >= n_) return Status::OutOfRange("user " + std::to_string(user) + " reported id " + std::to_string(v));
    if (v == user || (k > 0 && v <= r.neighbours[k - 1])) {
      return Status::InvalidArgument("user " + std::to_string(user) +
                                     "'s ids are not strictly increasing or list herself");
    }
  }
  double t1 = 1, t0 = 0;
  DegreeEvidence laplace;
  switch (r.mechanism) {
    case EdgeMechanism::kNone:
      break;
    case EdgeMechanism::kRr:
      t1 = r.p;
      t0 = 1 - r.p;
      break;
    case EdgeMechanism::kDprr:
      t1 = r.p * r.q;
      t0 = (1 - r.p) * r.q;
      laplace = FromDprrSampling(r, n_);
      break;
    case EdgeMechanism::kRrDegree:
      t1 = r.p;
      t0 = 1 - r.p;
      laplace.value = static_cast<double>(r.noisy_degree);
      laplace.variance = DiscreteLaplaceVariance(r.eps1);
      break;
    case EdgeMechanism::kLocalLap:
      return Status::InvalidArgument("LocalLap reports carry no RR row: the edge posterior cannot use them");
  }
  if (!(IsProbability(r.p) && r.p >= 0.5 && IsProbability(r.q))) {
    return Status::InvalidArgument("user " + std::to_string(user) + "'s report has p or q out of range");
  }
  if (r.mechanism == EdgeMechanism::kDprr || r.mechanism == EdgeMechanism::kRrDegree) {
    if (!(r.eps1 > 0 && std::isfinite(r.eps1))) {
      return Status::InvalidArgument("user " + std::to_string(user) + "'s report has no positive eps1");
    }
  }
  // 1 - p from p loses precision at large epsilon; eps2 gives it exactly.
  if (r.mechanism != EdgeMechanism::kNone && r.eps2 > 0 && std::isfinite(r.eps2)) {
    t0 = r.q / (1 + std::exp(r.eps2));
  }
  double degree = static_cast<double>(r.neighbours.size()), variance = 0;
  if (r.mechanism != EdgeMechanism::kNone) {
    const DegreeEvidence length = FromLength(r.neighbours.size(), n_, t1, t0);
    const double wl = 1 / length.variance, wd = 1 / laplace.variance;  // 0 for missing evidence
    variance = 1 / (wl + wd);  // infinity when there is no evidence: the length stands, unweighted
    if (wl + wd > 0) degree = (wl * length.value + wd * laplace.value) / (wl + wd);
  }
  seen_[user] = true;
  rows_.SetRow(user, r.neighbours);
  out_.keep_edge[user] = t1;
  out_.keep_non_edge[user] = t0;
  out_.degree[user] = degree;  // shrunk and clamped in Finish()
  out_.degree_variance[user] = variance;
  return Status::Ok();
}

LinkReports LinkReportsBuilder::Finish() {
  // A user without a report lists nobody whatever her friends (t1 = t0 = 0:
  // her side of every pair is no evidence), and her degree is unknown (the
  // mean, below).
  for (std::uint32_t u = 0; u < n_; ++u) {
    if (!seen_[u]) out_.degree_variance[u] = INFINITY;
  }
  // Empirical Bayes: each estimate shrunk toward the mean by the share of
  // its spread that is noise, E[d | estimate] for degrees spread with the
  // variance the estimates show beyond their noise. Unshrunk, a user whose
  // noise drew her estimate low would get too low a prior for every pair,
  // and the posteriors would be overconfident at both ends (on G(n, p) with
  // mean degree 10 at epsilon 5, pairs given 0.76 were edges 90% of the time).
  double mean = 0, spread = 0, noise = 0;
  std::uint64_t reporters = 0, noisy = 0;
  for (std::uint32_t u = 0; u < n_; ++u) {
    if (!seen_[u]) continue;
    mean += out_.degree[u];
    ++reporters;
  }
  mean /= std::max<double>(1, static_cast<double>(reporters));
  for (std::uint32_t u = 0; u < n_; ++u) {
    if (!seen_[u]) continue;
    spread += (out_.degree[u] - mean) * (out_.degree[u] - mean);
    if (std::isfinite(out_.degree_variance[u])) {
      noise += out_.degree_variance[u];
      ++noisy;
    }
  }
  spread /= std::max<double>(1, static_cast<double>(reporters));
  noise /= std::max<double>(1, static_cast<double>(noisy));
  const double signal = std::max(spread - noise, 0.05 * spread);
  for (std::uint32_t u = 0; u < n_; ++u) {
    const double v = out_.degree_variance[u];
    const double keep = std::isfinite(v) ? signal / (signal + v) : 0.0;  // no evidence: the mean
    out_.degree[u] = std::clamp(mean + keep * (out_.degree[u] - mean), 0.0, static_cast<double>(n_) - 1);
  }
  out_.rows = rows_.Finish();
  return std::move(out_);
}

}  // namespace ldpgraph
