// User tokens: bound to one (graph, user), unforgeable without the secret,
// one text form per token; base64url round trips and refuses what is not.
#include <doctest/doctest.h>

#include "net/base64url.h"
#include "net/token_authority.h"

using ldpgraph::Base64UrlDecode;
using ldpgraph::Base64UrlEncode;
using ldpgraph::TokenAuthority;

TEST_CASE("Base64Url.RoundTripsEveryLengthAndRefusesNonCanonicalText") {
  std::vector<std::uint8_t> bytes;
  for (int n = 0; n < 40; ++n) {
    const std::string text = Base64UrlEncode(bytes.data(), bytes.size());
    CHECK(text.find_first_of("+/=") == std::string::npos);
    auto back = Base64UrlDecode(text);
    REQUIRE(back.has_value());
    CHECK(*back == bytes);
    bytes.push_back(static_cast<std::uint8_t>(n * 37 + 11));
  }
  CHECK(Base64UrlEncode(reinterpret_cast<const std::uint8_t*>("hi?"), 3) == "aGk_");
  CHECK_FALSE(Base64UrlDecode("aGk/").has_value());  // '/' is not in the alphabet
  CHECK_FALSE(Base64UrlDecode("aGk=").has_value());  // no padding
  CHECK_FALSE(Base64UrlDecode("a").has_value());     // no encoding has this length
  CHECK_FALSE(Base64UrlDecode("aGl").has_value());   // "hi" is "aGk": trailing bits set
}

TEST_CASE("TokenAuthority.VerifiesItsOwnTokensAndNothingElse") {
  CHECK_FALSE(TokenAuthority::Create("short").ok());
  auto a = TokenAuthority::Create(std::string(32, 'k'));
  auto b = TokenAuthority::Create(std::string(32, 'j'));
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  const std::string token = a->Issue(0x0102030405060708ull, 0xA0B0C0D0u);
  auto subject = a->Verify(token);
  REQUIRE(subject.ok());
  CHECK(subject->graph_id == 0x0102030405060708ull);
  CHECK(subject->user_id == 0xA0B0C0D0u);
  CHECK(a->Issue(1, 2) == a->Issue(1, 2));  // deterministic: stateless verification
  CHECK(a->Issue(1, 2) != a->Issue(1, 3));
  CHECK_FALSE(b->Verify(token).ok());  // another secret
  CHECK_FALSE(a->Verify("").ok());
  CHECK_FALSE(a->Verify("lgu1.").ok());
  CHECK_FALSE(a->Verify("lgu2." + token.substr(5)).ok());
  CHECK_FALSE(a->Verify(token + "A").ok());
  // Every single-character change of the body is refused.
  for (std::size_t i = 5; i < token.size(); ++i) {
    std::string forged = token;
    forged[i] = forged[i] == 'A' ? 'B' : 'A';
    CHECK_FALSE(a->Verify(forged).ok());
  }
}

TEST_CASE("SecretsEqual.ComparesContentOfAnyLength") {
  CHECK(ldpgraph::SecretsEqual("admin-token", "admin-token"));
  CHECK_FALSE(ldpgraph::SecretsEqual("admin-token", "admin-tokeN"));
  CHECK_FALSE(ldpgraph::SecretsEqual("admin-token", "admin-token-longer"));
  CHECK_FALSE(ldpgraph::SecretsEqual("", "x"));
}
