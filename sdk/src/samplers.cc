// Uniform integers, uniform reals and the exact Bernoulli sampler.
#include <cmath>

#include "ldpgraph/samplers.h"

namespace ldpgraph {

std::uint64_t UniformBelow(RandomSource& rng, std::uint64_t bound) {
  if (bound <= 1) return 0;
#if defined(__SIZEOF_INT128__)
  // Lemire's multiply-shift with rejection of the biased low region.
  __extension__ typedef unsigned __int128 u128;
  u128 m = static_cast<u128>(rng.NextU64()) * bound;
  auto low = static_cast<std::uint64_t>(m);
  if (low < bound) {
    const std::uint64_t threshold = (0 - bound) % bound;
    while (low < threshold) {
      m = static_cast<u128>(rng.NextU64()) * bound;
      low = static_cast<std::uint64_t>(m);
    }
  }
  return static_cast<std::uint64_t>(m >> 64);
#else
  const std::uint64_t threshold = (0 - bound) % bound;  // 2^64 mod bound
  for (;;) {
    const std::uint64_t r = rng.NextU64();
    if (r >= threshold) return r % bound;
  }
#endif
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
