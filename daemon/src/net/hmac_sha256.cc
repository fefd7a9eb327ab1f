#include "net/hmac_sha256.h"

#include <atomic>

#include <openssl/core_names.h>
#include <openssl/evp.h>

namespace ldpgraph {

struct HmacSha256::Keyed {
  EVP_MAC* mac = nullptr;
  EVP_MAC_CTX* ctx = nullptr;
  std::uint64_t serial = 0;  // names this key in the per-thread copies below
  ~Keyed() {
    EVP_MAC_CTX_free(ctx);
    EVP_MAC_free(mac);
  }
};

namespace {

std::atomic<std::uint64_t> next_serial{1};

// This thread's copy of the most recently used key's context. One entry: a
// process holds one token secret, so a second key only costs a copy when the
// thread switches between them (tests).
struct ThreadCopy {
  std::uint64_t serial = 0;
  EVP_MAC_CTX* ctx = nullptr;
  ~ThreadCopy() { EVP_MAC_CTX_free(ctx); }
};

EVP_MAC_CTX* ThreadContext(const HmacSha256::Keyed& keyed) {
  thread_local ThreadCopy copy;
  if (copy.serial != keyed.serial) {
    EVP_MAC_CTX_free(copy.ctx);
    copy.ctx = EVP_MAC_CTX_dup(keyed.ctx);
    copy.serial = copy.ctx ? keyed.serial : 0;
  }
  return copy.ctx;
}

}  // namespace

Result<HmacSha256> HmacSha256::Create(std::string_view key) {
  if (key.empty()) return Status::InvalidArgument("an HMAC key must not be empty");
  auto keyed = std::make_shared<Keyed>();
  keyed->mac = EVP_MAC_fetch(nullptr, "HMAC", nullptr);
  if (keyed->mac) keyed->ctx = EVP_MAC_CTX_new(keyed->mac);
  char digest[] = "SHA256";
  const OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest, 0),
                               OSSL_PARAM_construct_end()};
  if (!keyed->ctx ||
      EVP_MAC_init(keyed->ctx, reinterpret_cast<const unsigned char*>(key.data()), key.size(), params) != 1) {
    return Status::Internal("OpenSSL offers no HMAC-SHA256");
  }
  keyed->serial = next_serial.fetch_add(1);
  HmacSha256 h;
  h.keyed_ = std::move(keyed);
  return h;
}

std::optional<HmacSha256::Digest> HmacSha256::Compute(const std::uint8_t* message, std::size_t size) const {
  if (!keyed_) return std::nullopt;  // default-constructed: no key
  Digest digest{};
  EVP_MAC_CTX* ctx = ThreadContext(*keyed_);
  std::size_t length = 0;
  // A null key re-initialises with the key the context already holds.
  const bool ok = ctx && EVP_MAC_init(ctx, nullptr, 0, nullptr) == 1 && EVP_MAC_update(ctx, message, size) == 1 &&
                  EVP_MAC_final(ctx, digest.data(), &length, digest.size()) == 1 && length == digest.size();
  if (!ok) return std::nullopt;
  return digest;
}

}  // namespace ldpgraph
