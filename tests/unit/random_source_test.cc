// The sources a device can draw from: ChaCha20 against RFC 8439's block
// test vector, the TRNG callback, and FillBytes' byte order.
#include <doctest/doctest.h>

#include <cstring>
#include <vector>

#include "ldpgraph/random_source.h"

using namespace ldpgraph;

namespace {
std::uint8_t kKey[32];  // 00 01 .. 1f, RFC 8439 section 2.3.2
struct KeyInit {
  KeyInit() { for (int i = 0; i < 32; ++i) kKey[i] = static_cast<std::uint8_t>(i); }
} key_init;
}  // namespace

TEST_CASE("RandomSource.ChaCha20IsRfc8439sBlockFunction") {
  // The RFC's nonce 00:00:00:09:00:00:00:4a:00:00:00:00 is stream
  // 0x4a00000009000000 here; its counter 1 is this source's second block.
  ChaCha20RandomSource rng(kKey, 0x4a00000009000000ull);
  for (int i = 0; i < 8; ++i) (void)rng.NextU64();
  std::uint8_t block[64];
  rng.FillBytes(block, sizeof block);
  const std::uint8_t expected[64] = {
      0x10, 0xf1, 0xe7, 0xe4, 0xd1, 0x3b, 0x59, 0x15, 0x50, 0x0f, 0xdd, 0x1f, 0xa3, 0x20, 0x71, 0xc4,
      0xc7, 0xd1, 0xf4, 0xc7, 0x33, 0xc0, 0x68, 0x03, 0x04, 0x22, 0xaa, 0x9a, 0xc3, 0xd4, 0x6c, 0x4e,
      0xd2, 0x82, 0x64, 0x46, 0x07, 0x9f, 0xaa, 0x09, 0x14, 0xc2, 0xd7, 0x05, 0xd9, 0x8b, 0x02, 0xa2,
      0xb5, 0x12, 0x9c, 0xd1, 0xde, 0x16, 0x4e, 0xb9, 0xcb, 0xd0, 0x83, 0xe8, 0xa2, 0x50, 0x3c, 0x4e};
  CHECK(std::memcmp(block, expected, sizeof block) == 0);
}

TEST_CASE("RandomSource.ChaCha20StreamsOfOneKeyDiffer") {
  ChaCha20RandomSource a(kKey, 1), b(kKey, 2), a_again(kKey, 1);
  std::vector<std::uint64_t> wa, wb, wa2;
  for (int i = 0; i < 600; ++i) {  // past one buffer refill
    wa.push_back(a.NextU64());
    wb.push_back(b.NextU64());
    wa2.push_back(a_again.NextU64());
  }
  CHECK(wa == wa2);
  int equal = 0;
  for (int i = 0; i < 600; ++i) equal += wa[i] == wb[i];
  CHECK(equal == 0);
}

TEST_CASE("RandomSource.ACallbackSourceYieldsTheBytesItsCallbackWrites") {
  std::uint8_t next = 0;
  CallbackRandomSource rng(
      [](void* context, std::uint8_t* out, std::size_t len) {
        auto* counter = static_cast<std::uint8_t*>(context);
        for (std::size_t i = 0; i < len; ++i) out[i] = (*counter)++;
      },
      &next);
  std::uint8_t bytes[12];
  rng.FillBytes(bytes, sizeof bytes);
  for (int i = 0; i < 12; ++i) CHECK(bytes[i] == i);  // words little-endian on this test's CPUs
}

TEST_CASE("RandomSource.FillBytesWritesEachWordLittleEndian") {
  SeededRandomSource words(7), bytes(7);
  const std::uint64_t w = words.NextU64();
  std::uint8_t out[5];
  bytes.FillBytes(out, sizeof out);
  for (int i = 0; i < 5; ++i) CHECK(out[i] == static_cast<std::uint8_t>(w >> (8 * i)));
}
