// DPRR's sampling probability q (eq. 5) and its rate for a non-friend's 1,
// (1 - p) q, on the grid of clamped noisy degrees 0 .. n - 1, where q grows
// with the degree: the grid its memoised form draws its non-friend ones along
// (memoised_rr.h). Both depend on n and p alone, so this header stands below
// dprr.h rather than beside it.
#ifndef LDPGRAPH_INTERNAL_DPRR_RATES_H_
#define LDPGRAPH_INTERNAL_DPRR_RATES_H_

#include <algorithm>
#include <cstdint>

#include "internal/memoised_rr.h"

namespace ldpgraph {
namespace internal {

// q for a noisy degree d* of a graph of n users, with d* clamped to
// [0, n - 1] first and q to [0, 1] (see dprr.h).
inline double DprrSamplingProbability(std::uint32_t n, double p, std::int64_t noisy_degree) {
  const double d = static_cast<double>(std::clamp<std::int64_t>(noisy_degree, 0, static_cast<std::int64_t>(n) - 1));
  const double q = d / (d * (2.0 * p - 1.0) + (static_cast<double>(n) - 1.0) * (1.0 - p));
  return std::clamp(q, 0.0, 1.0);
}

class DprrRates final : public RateGrid {
 public:
  DprrRates(std::uint32_t n, double p) : n_(n), p_(p) {}
  std::uint64_t size() const override { return n_; }
  double Rate(std::uint64_t t) const override {
    return (1.0 - p_) * DprrSamplingProbability(n_, p_, static_cast<std::int64_t>(t));
  }

 private:
  std::uint32_t n_;
  double p_;
};

}  // namespace internal
}  // namespace ldpgraph

#endif  // LDPGRAPH_INTERNAL_DPRR_RATES_H_
