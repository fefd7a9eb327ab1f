#include "console/console_session.h"

#include <optional>

#include "net/base64url.h"
#include "net/hmac_sha256.h"
#include "net/token_authority.h"

namespace ldpgraph {
namespace {

std::optional<std::string> Mac(const std::string& admin_token, std::int64_t expiry) {
  Result<HmacSha256> hmac = HmacSha256::Create(admin_token);
  if (!hmac.ok()) return std::nullopt;
  const std::string message = "ldpgraph-console:" + std::to_string(expiry);
  std::optional<HmacSha256::Digest> digest =
      hmac->Compute(reinterpret_cast<const std::uint8_t*>(message.data()), message.size());
  if (!digest) return std::nullopt;
  return Base64UrlEncode(digest->data(), digest->size());
}

// The value of cookie `name` in a Cookie header ("a=1; b=2"), or empty.
std::string CookieValue(const std::string& header, const std::string& name) {
  std::size_t at = 0;
  while (at < header.size()) {
    while (at < header.size() && (header[at] == ' ' || header[at] == ';')) ++at;
    const std::size_t end = header.find(';', at);
    const std::string pair = header.substr(at, end == std::string::npos ? std::string::npos : end - at);
    const std::size_t eq = pair.find('=');
    if (eq != std::string::npos && pair.compare(0, eq, name) == 0 && eq == name.size()) return pair.substr(eq + 1);
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return "";
}

}  // namespace

std::string SessionCookie(const std::string& admin_token, std::int64_t now) {
  const std::int64_t expiry = now + kConsoleSessionSeconds;
  const std::optional<std::string> mac = Mac(admin_token, expiry);
  return std::string(kConsoleCookieName) + "=" + std::to_string(expiry) + "." + mac.value_or("") +
         "; Path=/console; Max-Age=" + std::to_string(kConsoleSessionSeconds) + "; HttpOnly; Secure; SameSite=Strict";
}

std::string ClearedSessionCookie() {
  return std::string(kConsoleCookieName) + "=; Path=/console; Max-Age=0; HttpOnly; Secure; SameSite=Strict";
}

bool HasValidSession(const std::string& cookie_header, const std::string& admin_token, std::int64_t now) {
  const std::string value = CookieValue(cookie_header, kConsoleCookieName);
  const std::size_t dot = value.find('.');
  if (dot == std::string::npos || dot == 0 || dot > 19) return false;
  std::int64_t expiry = 0;
  for (std::size_t i = 0; i < dot; ++i) {
    if (value[i] < '0' || value[i] > '9') return false;
    expiry = expiry * 10 + (value[i] - '0');
  }
  if (expiry <= now || expiry > now + kConsoleSessionSeconds) return false;
  const std::optional<std::string> mac = Mac(admin_token, expiry);
  return mac && SecretsEqual(value.substr(dot + 1), *mac);
}

}  // namespace ldpgraph
