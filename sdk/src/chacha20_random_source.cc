// ChaCha20's block function (RFC 8439, section 2.3) as a random source.
#include <cstdlib>

#include "ldpgraph/random_source.h"

namespace ldpgraph {
namespace {

std::uint32_t Rotl32(std::uint32_t x, int k) { return (x << k) | (x >> (32 - k)); }

void QuarterRound(std::uint32_t* x, int a, int b, int c, int d) {
  x[a] += x[b]; x[d] = Rotl32(x[d] ^ x[a], 16);
  x[c] += x[d]; x[b] = Rotl32(x[b] ^ x[c], 12);
  x[a] += x[b]; x[d] = Rotl32(x[d] ^ x[a], 8);
  x[c] += x[d]; x[b] = Rotl32(x[b] ^ x[c], 7);
}

std::uint32_t LoadLe32(const std::uint8_t* p) {
  return std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 | std::uint32_t{p[3]} << 24;
}

}  // namespace

ChaCha20RandomSource::ChaCha20RandomSource(const std::uint8_t (&key)[32], std::uint64_t stream) {
  input_[0] = 0x61707865;  // "expand 32-byte k"
  input_[1] = 0x3320646e;
  input_[2] = 0x79622d32;
  input_[3] = 0x6b206574;
  for (int i = 0; i < 8; ++i) input_[4 + i] = LoadLe32(key + 4 * i);
  input_[12] = 0;  // block counter
  input_[13] = static_cast<std::uint32_t>(stream);
  input_[14] = static_cast<std::uint32_t>(stream >> 32);
  input_[15] = 0;
}

void ChaCha20RandomSource::Refill(std::uint64_t* out, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {
    if (next_ == 8) {
      // Predictable (repeated) bits would void every guarantee: stop instead.
      if (exhausted_) std::abort();
      std::uint32_t x[16];
      for (int k = 0; k < 16; ++k) x[k] = input_[k];
      for (int round = 0; round < 10; ++round) {  // 20 rounds: column, then diagonal
        QuarterRound(x, 0, 4, 8, 12);
        QuarterRound(x, 1, 5, 9, 13);
        QuarterRound(x, 2, 6, 10, 14);
        QuarterRound(x, 3, 7, 11, 15);
        QuarterRound(x, 0, 5, 10, 15);
        QuarterRound(x, 1, 6, 11, 12);
        QuarterRound(x, 2, 7, 8, 13);
        QuarterRound(x, 3, 4, 9, 14);
      }
      for (int k = 0; k < 8; ++k) {
        block_[k] = std::uint64_t{x[2 * k] + input_[2 * k]} | std::uint64_t{x[2 * k + 1] + input_[2 * k + 1]} << 32;
      }
      if (++input_[12] == 0) exhausted_ = true;
      next_ = 0;
    }
    out[i] = block_[next_++];
  }
}

}  // namespace ldpgraph
