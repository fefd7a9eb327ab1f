// Uniform k-subsets of [0, n) that avoid a sorted set.
#include <algorithm>
#include <string>

#include "ldpgraph/samplers.h"

namespace ldpgraph {
namespace {

// Open-addressing set of ranks for Floyd's algorithm; its memory is O(k):
// 4 bytes a slot, at least two slots a rank (8 to 16 bytes a sampled id,
// which on a microcontroller is most of a report's arena).
class RankSet {
 public:
  explicit RankSet(std::uint64_t expected) {
    std::size_t size = 16;
    while (size < 2 * expected) size <<= 1;
    slots_.assign(size, kEmpty);
  }
  // Inserts `v`; false if it was already present.
  bool Insert(std::uint32_t v) {
    const std::size_t mask = slots_.size() - 1;  // ranks are < n - 1 < kEmpty
    std::size_t i = (static_cast<std::uint64_t>(v) * 0x9e3779b97f4a7c15ULL) >> 32 & mask;
    while (slots_[i] != kEmpty) {
      if (slots_[i] == v) return false;
      i = (i + 1) & mask;
    }
    slots_[i] = v;
    return true;
  }

 private:
  static constexpr std::uint32_t kEmpty = ~std::uint32_t{0};
  std::vector<std::uint32_t> slots_;
};

// Floyd's algorithm: k distinct uniform ranks of [0, m), appended unsorted.
void FloydRanks(RandomSource& rng, std::uint64_t m, std::uint64_t k,
                std::vector<std::uint32_t>* out) {
  RankSet seen(k);
  for (std::uint64_t j = m - k; j < m; ++j) {
    const auto t = static_cast<std::uint32_t>(UniformBelow(rng, j + 1));
    const auto pick = seen.Insert(t) ? t : static_cast<std::uint32_t>(j);
    if (pick != t) seen.Insert(pick);  // j itself is new: all earlier picks are < j
    out->push_back(pick);
  }
}

}  // namespace

Status SampleSubsetAvoiding(RandomSource& rng, std::uint32_t n, Span<const std::uint32_t> avoid,
                            std::uint64_t k, std::vector<std::uint32_t>* out) {
  for (std::size_t i = 0; i < avoid.size(); ++i) {
    if (avoid[i] >= n) {
      return Status::InvalidArgument("avoid set element " + std::to_string(avoid[i]) +
                                     " is not below n = " + std::to_string(n));
    }
    if (i > 0 && avoid[i] <= avoid[i - 1]) {
      return Status::InvalidArgument("avoid set must be strictly increasing");
    }
  }
  const std::uint64_t m = n - avoid.size();  // values available
  if (k > m) {
    return Status::InvalidArgument("cannot draw " + std::to_string(k) + " distinct values from " +
                                   std::to_string(m));
  }
  if (k == 0) return Status::Ok();

  const std::size_t first = out->size();
  if (2 * k <= m) {
    FloydRanks(rng, m, k, out);
    std::sort(out->begin() + static_cast<std::ptrdiff_t>(first), out->end());
  } else {
    // Dense case: draw the m - k ranks to leave out, then list the rest.
    std::vector<std::uint32_t> excluded;
    excluded.reserve(m - k);
    FloydRanks(rng, m, m - k, &excluded);
    std::sort(excluded.begin(), excluded.end());
    std::size_t e = 0;
    for (std::uint64_t r = 0; r < m; ++r) {
      if (e < excluded.size() && excluded[e] == r) {
        ++e;
      } else {
        out->push_back(static_cast<std::uint32_t>(r));
      }
    }
  }
  // Rank r is the r-th value of [0, n) not in `avoid`: shift it past every
  // avoided value at or below it. Ranks are sorted, so one merge pass does it.
  std::size_t j = 0;
  for (std::size_t i = first; i < out->size(); ++i) {
    const std::uint64_t r = (*out)[i];
    while (j < avoid.size() && avoid[j] <= r + j) ++j;
    (*out)[i] = static_cast<std::uint32_t>(r + j);
  }
  return Status::Ok();
}

}  // namespace ldpgraph
