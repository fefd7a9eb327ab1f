// Base64url without padding (RFC 4648 section 5): the alphabet of tokens.
#ifndef LDPGRAPH_DAEMON_NET_BASE64URL_H_
#define LDPGRAPH_DAEMON_NET_BASE64URL_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ldpgraph {

std::string Base64UrlEncode(const std::uint8_t* data, std::size_t size);
// nullopt for a character outside the alphabet, padding, or a length no
// encoding has; non-canonical trailing bits are refused too, so each byte
// string has exactly one text form.
std::optional<std::vector<std::uint8_t>> Base64UrlDecode(std::string_view text);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_NET_BASE64URL_H_
