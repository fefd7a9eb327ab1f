// HMAC-SHA256 under a key set once: the RFC 4231 vectors, the same digests as
// OpenSSL's one-shot HMAC() (tokens issued before the change keep verifying),
// two keys alternating on one thread, and many threads at once.
#include <doctest/doctest.h>

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "net/hmac_sha256.h"

using ldpgraph::HmacSha256;

namespace {

std::string Hex(const HmacSha256::Digest& d) {
  std::string s;
  char b[3];
  for (std::uint8_t x : d) {
    std::snprintf(b, sizeof b, "%02x", x);
    s += b;
  }
  return s;
}

std::string HexOf(const HmacSha256& mac, const std::string& message) {
  auto d = mac.Compute(reinterpret_cast<const std::uint8_t*>(message.data()), message.size());
  REQUIRE(d.has_value());
  return Hex(*d);
}

HmacSha256::Digest OneShot(const std::string& key, const std::string& message) {
  HmacSha256::Digest d{};
  unsigned length = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(message.data()),
       message.size(), d.data(), &length);
  return d;
}

}  // namespace

TEST_CASE("HmacSha256.MatchesRfc4231") {
  auto one = HmacSha256::Create(std::string(20, '\x0b'));
  auto two = HmacSha256::Create("Jefe");
  REQUIRE(one.ok());
  REQUIRE(two.ok());
  CHECK(HexOf(*one, "Hi There") == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
  CHECK(HexOf(*two, "what do ya want for nothing?") ==
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  // Alternating keys on one thread: each call uses its own key.
  CHECK(HexOf(*one, "Hi There") == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
  // A key longer than SHA-256's block is hashed first (RFC 4231 test case 6).
  auto long_key = HmacSha256::Create(std::string(131, '\xaa'));
  REQUIRE(long_key.ok());
  CHECK(HexOf(*long_key, "Test Using Larger Than Block-Size Key - Hash Key First") ==
        "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
}

TEST_CASE("HmacSha256.RefusesAnEmptyKeyAndAnswersNothingWithoutOne") {
  CHECK(HmacSha256::Create("").status().code() == ldpgraph::StatusCode::kInvalidArgument);
  const std::uint8_t m[1] = {1};
  CHECK_FALSE(HmacSha256().Compute(m, 1).has_value());
}

TEST_CASE("HmacSha256.SameDigestsAsOneShotFromManyThreads") {
  const std::string key = "bench-secret-0123456789abcdef0123456789", other_key = "another key, used in between";
  auto mac = HmacSha256::Create(key);
  auto other = HmacSha256::Create(other_key);
  REQUIRE(mac.ok());
  REQUIRE(other.ok());
  std::vector<int> wrong(4, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 2000; ++i) {
        const std::string message = "message " + std::to_string(t) + "/" + std::to_string(i);
        const bool second = i % 7 == 0;  // every seventh call uses the other key
        const auto d = (second ? *other : *mac)
                           .Compute(reinterpret_cast<const std::uint8_t*>(message.data()), message.size());
        if (!d || *d != OneShot(second ? other_key : key, message)) ++wrong[t];
      }
    });
  }
  for (auto& th : threads) th.join();
  CHECK(wrong == std::vector<int>(4, 0));
}
