// The memoised form of the per-bit randomization behind DPRR, RR and RR
// with degree (docs/rounds.md): the same output distribution in any one
// round, with every choice a permanent coin, so that an unchanged friend
// list gives the same output in every round.
#ifndef LDPGRAPH_INTERNAL_MEMOISED_RR_H_
#define LDPGRAPH_INTERNAL_MEMOISED_RR_H_

#include <cstdint>
#include <vector>

#include "ldpgraph/permanent_coins.h"
#include "ldpgraph/samplers.h"
#include "ldpgraph/status.h"

namespace ldpgraph {
namespace internal {

// The rates at which a non-friend's bit reports 1, on a public grid: rate(t)
// for t in [0, size), nondecreasing in t. One rate for RR; DPRR has one per
// noisy degree (its sampling probability q grows with it).
class RateGrid {
 public:
  virtual ~RateGrid() = default;
  virtual std::uint64_t size() const = 0;
  virtual double Rate(std::uint64_t t) const = 0;
};

// One rate for every grid point (RR, RR with degree).
class ConstantRate final : public RateGrid {
 public:
  explicit ConstantRate(double rate) : rate_(rate) {}
  std::uint64_t size() const override { return 1; }
  double Rate(std::uint64_t) const override { return rate_; }

 private:
  double rate_;
};

// Friend j reports 1 when her coin U_j (kFriendBit, j) is below `keep`.
// Non-friend j reports 1 when his coin V_j is below rate(t): every bit
// independent with the stated probability, and for one set of coins the
// ones at a larger rate are a superset of those at a smaller one (so a
// change of t moves only the bits whose coin lies between the two rates).
//
// The V_j are never drawn one by one (that is O(n)). Their joint law is
// that of a uniform order of the n - 1 candidates (kNonFriendOrder) and
// the counts K(t) = #{j : V_j < rate(t)}: K at the largest rate is
// Binomial(n - 1, rate), and K at the grid's midpoints follows by
// conditional binomials down a binary tree (kNonFriendCount, one coin per
// node), so K(t) costs O(log size) draws. The ones are the first K(t)
// candidates of the order, drawn by a lazy Fisher-Yates shuffle.
// O(d + K(t)) time and memory. `sorted` holds the friends, strictly
// increasing, without `user`; the output is written to `out`, increasing.
Status MemoisedSparseRandomizedResponse(const PermanentCoins& coins, std::uint32_t n, std::uint32_t user,
                                        const std::vector<std::uint32_t>& sorted, double keep,
                                        const RateGrid& grid, std::uint64_t t, std::vector<std::uint32_t>* out);

// d + L(d), with L(d) the noise drawn from the permanent coin of the degree
// value d: the noisy degree of DPRR, RR with degree and LocalLap, memoised.
inline std::int64_t MemoisedNoisyDegree(const PermanentCoins& coins, const DiscreteLaplace& noise, std::size_t degree) {
  CoinStream coin = coins.Coin(CoinPurpose::kDegree, 0, degree);
  return static_cast<std::int64_t>(degree) + noise.Sample(coin);
}

// K(t) alone (exposed for tests of its law and its monotonicity).
std::uint64_t MemoisedOnesCount(const PermanentCoins& coins, std::uint64_t candidates, const RateGrid& grid,
                                std::uint64_t t);

}  // namespace internal
}  // namespace ldpgraph

#endif  // LDPGRAPH_INTERNAL_MEMOISED_RR_H_
