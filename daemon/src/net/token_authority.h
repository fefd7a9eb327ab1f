// TokenAuthority: user tokens bound to one (graph, user), so nobody can
// submit a report for someone else. A token is
//   "lgu1." base64url(graph id u64 LE | user id u32 LE | HMAC-SHA256(secret, label | those 12 bytes))
// Stateless: the daemon verifies by recomputing the MAC (constant-time
// comparison), so issuing a million tokens stores nothing. Rotating the
// secret revokes every token.
#ifndef LDPGRAPH_DAEMON_NET_TOKEN_AUTHORITY_H_
#define LDPGRAPH_DAEMON_NET_TOKEN_AUTHORITY_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "ldpgraph/status.h"
#include "net/hmac_sha256.h"

namespace ldpgraph {

struct TokenSubject {
  std::uint64_t graph_id = 0;
  std::uint32_t user_id = 0;
};

class TokenAuthority {
 public:
  // Errors: kInvalidArgument for a secret shorter than 32 bytes.
  static Result<TokenAuthority> Create(std::string secret);
  TokenAuthority() = default;

  // Throws std::bad_alloc when OpenSSL cannot compute the MAC (out of memory).
  std::string Issue(std::uint64_t graph_id, std::uint32_t user_id) const;
  // Errors: kInvalidArgument for a malformed token or a wrong MAC,
  // kUnavailable when OpenSSL cannot compute the MAC.
  Result<TokenSubject> Verify(std::string_view token) const;

 private:
  HmacSha256 mac_;  // keyed with the secret
};

// Constant-time equality of two secrets of any lengths (compares their
// SHA-256 digests, so not even the length leaks through timing).
bool SecretsEqual(std::string_view a, std::string_view b);

// The token of "Authorization: Bearer <token>" (scheme in any case), or empty.
std::string BearerToken(const std::string& authorization);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_NET_TOKEN_AUTHORITY_H_
