// The deterministic source and what every source shares. The OS source is
// in os_random_source.cc (a bare-metal build has no OS), the keyed stream
// in chacha20_random_source.cc.
#include "ldpgraph/random_source.h"

namespace ldpgraph {
namespace {

std::uint64_t SplitMix64(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

inline std::uint64_t Rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

}  // namespace

void RandomSource::FillBytes(std::uint8_t* out, std::size_t len) {
  while (len > 0) {
    std::uint64_t w = NextU64();
    const std::size_t n = len < 8 ? len : 8;
    for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<std::uint8_t>(w >> (8 * i));  // little-endian on any CPU
    out += n;
    len -= n;
  }
}

void CallbackRandomSource::Refill(std::uint64_t* out, std::size_t count) {
  // Uniform bytes make uniform words in either byte order.
  fill_(context_, reinterpret_cast<std::uint8_t*>(out), count * sizeof(std::uint64_t));
}

SeededRandomSource::SeededRandomSource(std::uint64_t seed) {
  for (auto& s : state_) s = SplitMix64(seed);
}

void SeededRandomSource::Refill(std::uint64_t* out, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {  // xoshiro256** (Blackman and Vigna)
    out[i] = Rotl(state_[1] * 5, 7) * 9;
    const std::uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = Rotl(state_[3], 45);
  }
}

}  // namespace ldpgraph
