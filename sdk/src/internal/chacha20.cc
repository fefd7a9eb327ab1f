#include "internal/chacha20.h"

namespace ldpgraph {
namespace internal {
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

void ChaCha20Init(std::uint32_t words[16], const std::uint8_t* key32) {
  words[0] = 0x61707865;  // "expand 32-byte k"
  words[1] = 0x3320646e;
  words[2] = 0x79622d32;
  words[3] = 0x6b206574;
  for (int i = 0; i < 8; ++i) words[4 + i] = LoadLe32(key32 + 4 * i);
  for (int i = 12; i < 16; ++i) words[i] = 0;
}

bool ChaCha20Block(std::uint32_t in[16], std::uint64_t out[8]) {
  std::uint32_t x[16];
  for (int k = 0; k < 16; ++k) x[k] = in[k];
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
    out[k] = std::uint64_t{x[2 * k] + in[2 * k]} | std::uint64_t{x[2 * k + 1] + in[2 * k + 1]} << 32;
  }
  return ++in[12] != 0;
}

}  // namespace internal
}  // namespace ldpgraph
