// ChaCha20 (RFC 8439) as a random source.
#include <cstdlib>

#include "internal/chacha20.h"
#include "ldpgraph/random_source.h"

namespace ldpgraph {

ChaCha20RandomSource::ChaCha20RandomSource(const std::uint8_t (&key)[32], std::uint64_t stream) {
  internal::ChaCha20Init(state_, key);
  state_[13] = static_cast<std::uint32_t>(stream);
  state_[14] = static_cast<std::uint32_t>(stream >> 32);
}

void ChaCha20RandomSource::Refill(std::uint64_t* out, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {
    if (next_ == 8) {
      // Predictable (repeated) bits would void every guarantee: stop instead.
      if (exhausted_) std::abort();
      exhausted_ = !internal::ChaCha20Block(state_, block_);
      next_ = 0;
    }
    out[i] = block_[next_++];
  }
}

}  // namespace ldpgraph
