#include "ldpgraph/permanent_coins.h"

#include <cstdlib>

#include "internal/chacha20.h"

namespace ldpgraph {

// The nonce is the coin's name, injectively: purpose (8 bits) and item (24
// bits) in the first word, the 64-bit value in the other two. The counter
// counts the coin's blocks.
CoinStream::CoinStream(const CoinKey& key, CoinPurpose purpose, std::uint32_t item, std::uint64_t value)
    : RandomSource(block_, 8) {
  if (item > PermanentCoins::kMaxItem) std::abort();
  internal::ChaCha20Init(state_, key.data());
  state_[13] = std::uint32_t{static_cast<std::uint8_t>(purpose)} << 24 | item;
  state_[14] = static_cast<std::uint32_t>(value);
  state_[15] = static_cast<std::uint32_t>(value >> 32);
}

void CoinStream::Refill(std::uint64_t* out, std::size_t count) {
  // The base refills its whole buffer: one block. A coin read for 2^32
  // blocks would repeat itself; no sampler reads that far.
  if (count != 8 || !internal::ChaCha20Block(state_, out)) std::abort();
}

}  // namespace ldpgraph
