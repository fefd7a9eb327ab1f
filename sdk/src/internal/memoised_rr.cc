#include "internal/memoised_rr.h"

#include <algorithm>


namespace ldpgraph {
namespace internal {
namespace {
// The counting coins' items: the total at the largest rate, and a tree node's split.
constexpr std::uint32_t kTotal = 0;
constexpr std::uint32_t kSplit = 1;

// The slots a lazy Fisher-Yates shuffle has moved: slot -> the candidate now
// there (an unmoved slot holds itself). Open addressing with linear probing
// in one vector, sized once for `moves` entries: a microcontroller's arena
// gets one block, and the image no std::unordered_map.
class MovedSlots {
 public:
  explicit MovedSlots(std::uint64_t moves) {
    std::size_t size = 16;
    while (size < 2 * moves + 1) size *= 2;
    table_.assign(size, kEmpty);
    mask_ = size - 1;
  }
  std::uint32_t At(std::uint32_t slot) const {
    const std::uint64_t entry = table_[Find(slot)];
    return entry == kEmpty ? slot : static_cast<std::uint32_t>(entry);
  }
  void Set(std::uint32_t slot, std::uint32_t candidate) {
    table_[Find(slot)] = std::uint64_t{slot} << 32 | candidate;
  }

 private:
  static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};  // slot 2^32 - 1 is never a slot (< n - 1)
  std::size_t Find(std::uint32_t slot) const {
    std::size_t i = (slot * std::size_t{0x9E3779B1u}) & mask_;
    while (table_[i] != kEmpty && static_cast<std::uint32_t>(table_[i] >> 32) != slot) i = (i + 1) & mask_;
    return i;
  }
  std::vector<std::uint64_t> table_;
  std::size_t mask_ = 0;
};
}  // namespace

std::uint64_t MemoisedOnesCount(const PermanentCoins& coins, std::uint64_t candidates, const RateGrid& grid,
                                std::uint64_t t) {
  // Grid points shifted by one: point 0 is rate 0 (count 0), point i >= 1 is
  // rate(i - 1). Invariant: lo < target <= hi with the counts at lo and hi known.
  const std::uint64_t target = t + 1;
  std::uint64_t lo = 0, hi = grid.size();
  double rate_lo = 0.0, rate_hi = grid.Rate(hi - 1);
  std::uint64_t count_lo = 0;
  std::uint64_t node = 1;  // heap numbering: children 2 node and 2 node + 1
  CoinStream root = coins.Coin(CoinPurpose::kNonFriendCount, kTotal, 0);
  std::uint64_t count_hi = Binomial(root, candidates, rate_hi);
  while (hi != target) {
    const std::uint64_t mid = lo + (hi - lo) / 2;  // lo < mid < hi, as hi - lo >= 2 here
    const double rate_mid = grid.Rate(mid - 1);
    const double share = rate_hi > rate_lo ? (rate_mid - rate_lo) / (rate_hi - rate_lo) : 0.0;
    CoinStream split = coins.Coin(CoinPurpose::kNonFriendCount, kSplit, node);
    const std::uint64_t count_mid = count_lo + Binomial(split, count_hi - count_lo, share);
    if (target <= mid) {
      hi = mid;
      rate_hi = rate_mid;
      count_hi = count_mid;
      node = 2 * node;
    } else {
      lo = mid;
      rate_lo = rate_mid;
      count_lo = count_mid;
      node = 2 * node + 1;
    }
  }
  return count_hi;
}

Status MemoisedSparseRandomizedResponse(const PermanentCoins& coins, std::uint32_t n, std::uint32_t user,
                                        const std::vector<std::uint32_t>& sorted, double keep,
                                        const RateGrid& grid, std::uint64_t t, std::vector<std::uint32_t>* out) {
  out->clear();
  for (std::uint32_t j : sorted) {
    CoinStream coin = coins.Coin(CoinPurpose::kFriendBit, 0, j);
    if (Bernoulli(coin, keep)) out->push_back(j);
  }
  const std::size_t kept = out->size();
  const std::uint64_t candidates = static_cast<std::uint64_t>(n) - 1;
  const std::uint64_t k = MemoisedOnesCount(coins, candidates, grid, t);
  if (k == 0) return Status::Ok();

  // The first k of a uniform order of the candidates (slot c is user c, or
  // c + 1 past the user): Fisher-Yates, remembering only the moved slots.
  MovedSlots moved(k);
  std::vector<std::uint32_t> ones;
  ones.reserve(static_cast<std::size_t>(k));
  CoinStream order = coins.Coin(CoinPurpose::kNonFriendOrder, 0, 0);
  for (std::uint64_t i = 0; i < k; ++i) {
    const auto pick = static_cast<std::uint32_t>(i + UniformBelow(order, candidates - i));
    const std::uint32_t chosen = moved.At(pick);
    moved.Set(pick, moved.At(static_cast<std::uint32_t>(i)));
    ones.push_back(chosen < user ? chosen : chosen + 1);
  }
  std::sort(ones.begin(), ones.end());
  // The friends' 0 coins are never used: their bits are 1 coins.
  out->reserve(kept + ones.size());
  for (std::uint32_t j : ones) {
    if (!std::binary_search(sorted.begin(), sorted.end(), j)) out->push_back(j);
  }
  std::inplace_merge(out->begin(), out->begin() + static_cast<std::ptrdiff_t>(kept), out->end());
  return Status::Ok();
}

}  // namespace internal
}  // namespace ldpgraph
