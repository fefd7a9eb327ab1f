// Permanent coins: the randomness of memoised reports (docs/rounds.md).
//
// A device that reports every round must not draw fresh noise for an
// unchanged value: T fresh copies of one noisy bit average to the bit. So
// every random choice of a memoised report is a coin named by what it
// perturbs (a friend's bit, a degree value, a feature value, a label) and
// drawn from a keyed pseudorandom function: the ChaCha20 keystream of the
// graph's 32-byte secret key, with the coin's name as the nonce. The same
// name gives the same coin in every round; different names give
// independent coins (as far as ChaCha20 is a PRF). The device keeps 32
// bytes per graph, not one coin per possible value.
// Thread-safety: immutable; streams are independent objects.
#ifndef LDPGRAPH_PERMANENT_COINS_H_
#define LDPGRAPH_PERMANENT_COINS_H_

#include <array>
#include <cstdint>

#include "ldpgraph/random_source.h"

namespace ldpgraph {

// What a coin perturbs: part of its name. Wire values (they select
// keystreams, so renumbering one changes every memoised report).
enum class CoinPurpose : std::uint8_t {
  kFriendBit = 1,       // value = friend id: the coin of a 1 bit
  kNonFriendCount = 2,  // value = node of the counting tree: how many 0 bits report 1
  kNonFriendOrder = 3,  // the order in which 0 bits turn to 1 as the rate grows
  kDegree = 4,          // value = the true degree: its noise
  kFeatureDims = 5,     // which feature dimensions are sent
  kFeatureSign = 6,     // item = dimension, value = the value's bits: its sign
  kLabel = 7,           // value = the true label
  kLocalLapValue = 8,   // value = friend id << 1 | bit: LocalLap's per-user value noise
};

using CoinKey = std::array<std::uint8_t, 32>;

// One coin: a stream of uniform words (its first word decides most draws;
// a rejection sampler reads on). Holds one 64-byte block, not a 4 KiB buffer.
class CoinStream final : public RandomSource {
 public:
  CoinStream(const CoinKey& key, CoinPurpose purpose, std::uint32_t item, std::uint64_t value);

 protected:
  void Refill(std::uint64_t* out, std::size_t count) override;

 private:
  std::uint32_t state_[16];
  std::uint64_t block_[8];
};

class PermanentCoins {
 public:
  // The largest item (a feature dimension): 24 bits of the nonce.
  static constexpr std::uint32_t kMaxItem = (1u << 24) - 1;

  explicit PermanentCoins(const CoinKey& key) : key_(key) {}

  // The coin named (purpose, item, value); item <= kMaxItem (a larger one
  // aborts: it would alias another coin's name).
  CoinStream Coin(CoinPurpose purpose, std::uint32_t item, std::uint64_t value) const {
    return CoinStream(key_, purpose, item, value);
  }

 private:
  CoinKey key_;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_PERMANENT_COINS_H_
