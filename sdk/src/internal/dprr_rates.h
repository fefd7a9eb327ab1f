// DPRR's rate for a non-friend's 1, (1 - p) q, on the grid of clamped noisy
// degrees 0 .. n - 1, where q grows with the degree: the grid its memoised
// form draws its non-friend ones along (memoised_rr.h).
#ifndef LDPGRAPH_INTERNAL_DPRR_RATES_H_
#define LDPGRAPH_INTERNAL_DPRR_RATES_H_

#include "internal/memoised_rr.h"
#include "ldpgraph/dprr.h"

namespace ldpgraph {
namespace internal {

class DprrRates final : public RateGrid {
 public:
  explicit DprrRates(const Dprr& dprr) : dprr_(dprr) {}
  std::uint64_t size() const override { return dprr_.num_users(); }
  double Rate(std::uint64_t t) const override {
    return (1.0 - dprr_.p()) * dprr_.SamplingProbability(static_cast<std::int64_t>(t));
  }

 private:
  const Dprr& dprr_;
};

}  // namespace internal
}  // namespace ldpgraph

#endif  // LDPGRAPH_INTERNAL_DPRR_RATES_H_
