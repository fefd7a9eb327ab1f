// A float's nearest bfloat16 (ties to even), as the engine's AMX products
// round their inputs: the reference the bfloat16 tests compare against.
#ifndef LDPGRAPH_TESTS_SUPPORT_BF16_ROUNDING_H_
#define LDPGRAPH_TESTS_SUPPORT_BF16_ROUNDING_H_

#include <cstdint>
#include <cstring>

#include "engine/matrix.h"

namespace ldpgraph {
namespace testing {

// Finite inputs.
inline float RoundToBf16(float x) {
  std::uint32_t u = 0;
  std::memcpy(&u, &x, sizeof u);
  u += 0x7fffu + ((u >> 16) & 1u);
  u &= 0xffff0000u;
  std::memcpy(&x, &u, sizeof u);
  return x;
}

inline Matrix Rounded(const Matrix& m) { return m.unaryExpr([](float x) { return RoundToBf16(x); }); }

}  // namespace testing
}  // namespace ldpgraph

#endif  // LDPGRAPH_TESTS_SUPPORT_BF16_ROUNDING_H_
