// ChaCha20's block function (RFC 8439, section 2.3): the keystream behind
// ChaCha20RandomSource and the permanent coins.
#ifndef LDPGRAPH_INTERNAL_CHACHA20_H_
#define LDPGRAPH_INTERNAL_CHACHA20_H_

#include <cstdint>

namespace ldpgraph {
namespace internal {

// A state is 16 words: 4 constants, 8 key words, the block counter, 3 nonce
// words. Sets the constants and the key; counter and nonce to zero.
void ChaCha20Init(std::uint32_t state[16], const std::uint8_t* key32);

// Writes the 64-byte keystream block of `state` as 8 little-endian 64-bit
// words and advances its counter; returns false once the 32-bit counter has
// wrapped (the block just written is the last distinct one).
bool ChaCha20Block(std::uint32_t state[16], std::uint64_t out[8]);

}  // namespace internal
}  // namespace ldpgraph

#endif  // LDPGRAPH_INTERNAL_CHACHA20_H_
