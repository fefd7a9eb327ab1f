#include "net/token_authority.h"

#include <cctype>
#include <cstring>
#include <new>

#include <openssl/crypto.h>
#include <openssl/sha.h>

#include "net/base64url.h"

namespace ldpgraph {
namespace {

constexpr char kPrefix[] = "lgu1.";
constexpr std::size_t kPrefixLength = sizeof(kPrefix) - 1;
// Domain separation: the secret never MACs anything else with this label.
constexpr char kLabel[] = "ldpgraph user token v1";
constexpr std::size_t kSubjectBytes = 12;
constexpr std::size_t kMacBytes = 32;

static_assert(HmacSha256::Digest().size() == kMacBytes);

std::optional<HmacSha256::Digest> ComputeMac(const HmacSha256& mac, const std::uint8_t* subject) {
  std::uint8_t message[sizeof(kLabel) + kSubjectBytes];
  std::memcpy(message, kLabel, sizeof(kLabel));  // with its NUL: label and subject cannot run together
  std::memcpy(message + sizeof(kLabel), subject, kSubjectBytes);
  return mac.Compute(message, sizeof(message));
}

}  // namespace

Result<TokenAuthority> TokenAuthority::Create(std::string secret) {
  if (secret.size() < 32) return Status::InvalidArgument("the token secret must hold at least 32 bytes");
  auto mac = HmacSha256::Create(secret);
  if (!mac.ok()) return mac.status();
  TokenAuthority a;
  a.mac_ = std::move(*mac);
  return a;
}

std::string TokenAuthority::Issue(std::uint64_t graph_id, std::uint32_t user_id) const {
  std::uint8_t raw[kSubjectBytes + kMacBytes];
  for (int i = 0; i < 8; ++i) raw[i] = static_cast<std::uint8_t>(graph_id >> (8 * i));
  for (int i = 0; i < 4; ++i) raw[8 + i] = static_cast<std::uint8_t>(user_id >> (8 * i));
  const auto mac = ComputeMac(mac_, raw);
  if (!mac) throw std::bad_alloc();
  std::memcpy(raw + kSubjectBytes, mac->data(), kMacBytes);
  return kPrefix + Base64UrlEncode(raw, sizeof(raw));
}

Result<TokenSubject> TokenAuthority::Verify(std::string_view token) const {
  if (token.size() < kPrefixLength || token.substr(0, kPrefixLength) != kPrefix) {
    return Status::InvalidArgument("not an ldpgraph user token");
  }
  auto raw = Base64UrlDecode(token.substr(kPrefixLength));
  if (!raw || raw->size() != kSubjectBytes + kMacBytes) return Status::InvalidArgument("malformed user token");
  const auto expected = ComputeMac(mac_, raw->data());
  if (!expected) return Status::Unavailable("cannot compute a token MAC (OpenSSL is out of memory)");
  if (CRYPTO_memcmp(expected->data(), raw->data() + kSubjectBytes, kMacBytes) != 0) {
    return Status::InvalidArgument("user token signature does not verify");
  }
  TokenSubject s;
  for (int i = 0; i < 8; ++i) s.graph_id |= std::uint64_t{(*raw)[i]} << (8 * i);
  for (int i = 0; i < 4; ++i) s.user_id |= std::uint32_t{(*raw)[8 + i]} << (8 * i);
  return s;
}

bool SecretsEqual(std::string_view a, std::string_view b) {
  std::uint8_t da[SHA256_DIGEST_LENGTH], db[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(a.data()), a.size(), da);
  SHA256(reinterpret_cast<const unsigned char*>(b.data()), b.size(), db);
  return CRYPTO_memcmp(da, db, sizeof(da)) == 0;
}

std::string BearerToken(const std::string& authorization) {
  static const char kScheme[] = "bearer ";
  if (authorization.size() <= sizeof(kScheme) - 1) return {};
  for (std::size_t i = 0; i + 1 < sizeof(kScheme); ++i) {
    if (std::tolower(static_cast<unsigned char>(authorization[i])) != kScheme[i]) return {};
  }
  std::size_t start = sizeof(kScheme) - 1;
  while (start < authorization.size() && authorization[start] == ' ') ++start;
  return authorization.substr(start);
}

}  // namespace ldpgraph
