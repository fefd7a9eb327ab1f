// Uniform integers, uniform reals and the exact Bernoulli sampler.
#include <cmath>

#include "ldpgraph/samplers.h"

namespace ldpgraph {

namespace {

// The 128-bit product a x b as (high, low) words. With a compiler's 128-bit
// integers where it has them (64-bit targets); by 32-bit halves elsewhere
// (armhf, Cortex-M), so every ISA draws the same integers from one stream.
struct Wide {
  std::uint64_t high;
  std::uint64_t low;
};

Wide MultiplyWide(std::uint64_t a, std::uint64_t b) {
#if defined(__SIZEOF_INT128__)
  __extension__ typedef unsigned __int128 u128;
  const u128 m = static_cast<u128>(a) * b;
  return {static_cast<std::uint64_t>(m >> 64), static_cast<std::uint64_t>(m)};
#else
  const std::uint64_t a_lo = a & 0xFFFFFFFFu, a_hi = a >> 32;
  const std::uint64_t b_lo = b & 0xFFFFFFFFu, b_hi = b >> 32;
  const std::uint64_t lo_lo = a_lo * b_lo;
  const std::uint64_t hi_lo = a_hi * b_lo;
  const std::uint64_t lo_hi = a_lo * b_hi;
  const std::uint64_t hi_hi = a_hi * b_hi;
  // The middle column's carries: each term below fits 64 bits.
  const std::uint64_t middle = (lo_lo >> 32) + (hi_lo & 0xFFFFFFFFu) + lo_hi;
  return {hi_hi + (hi_lo >> 32) + (middle >> 32), (middle << 32) | (lo_lo & 0xFFFFFFFFu)};
#endif
}

}  // namespace

std::uint64_t UniformBelow(RandomSource& rng, std::uint64_t bound) {
  if (bound <= 1) return 0;
  // Lemire's multiply-shift with rejection of the biased low region.
  Wide m = MultiplyWide(rng.NextU64(), bound);
  if (m.low < bound) {
    const std::uint64_t threshold = (0 - bound) % bound;  // 2^64 mod bound
    while (m.low < threshold) m = MultiplyWide(rng.NextU64(), bound);
  }
  return m.high;
}

double UniformUnit(RandomSource& rng) {
  return static_cast<double>(rng.NextU64() >> 11) * 0x1.0p-53;
}

bool Bernoulli(RandomSource& rng, double p) {
  if (!(p > 0.0)) return false;  // also NaN
  if (p >= 1.0) return true;
  // p = M * 2^-(z + 53) with M a 53-bit integer: its binary expansion is z
  // zeros, then the 53 bits of M, then zeros. Draw U's bits 64 at a time and
  // compare them with the expansion; the first difference decides U < p.
  int exponent = 0;
  const double mantissa = std::frexp(p, &exponent);  // p = mantissa * 2^exponent
  const auto m = static_cast<std::uint64_t>(std::ldexp(mantissa, 53));
  int zeros = -exponent;  // >= 0 because p < 1
  while (zeros >= 64) {
    if (rng.NextU64() != 0) return false;  // U already exceeds p
    zeros -= 64;
  }
  const int width = zeros + 53;  // significant bits left in this and the next chunk
  if (width <= 64) {
    return rng.NextU64() < (m << (64 - width));  // equal: the rest of p is 0, so U >= p
  }
  const std::uint64_t high = m >> (width - 64);
  const std::uint64_t low = m << (128 - width);
  const std::uint64_t u = rng.NextU64();
  if (u != high) return u < high;
  return rng.NextU64() < low;
}

}  // namespace ldpgraph
