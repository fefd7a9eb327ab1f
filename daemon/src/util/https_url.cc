#include "util/https_url.h"

namespace ldpgraph {

std::optional<HttpsUrl> ParseHttpsUrl(const std::string& url) {
  static const std::string kScheme = "https://";
  if (url.compare(0, kScheme.size(), kScheme) != 0) return std::nullopt;
  std::string rest = url.substr(kScheme.size());
  while (!rest.empty() && rest.back() == '/') rest.pop_back();
  HttpsUrl out;
  const std::size_t colon = rest.rfind(':');
  if (colon == std::string::npos || colon == 0) {
    if (rest.empty()) return std::nullopt;
    out.host = rest;
    return out;
  }
  out.host = rest.substr(0, colon);
  const std::string port = rest.substr(colon + 1);
  if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  const unsigned long p = std::stoul(port);
  if (p == 0 || p > 65535) return std::nullopt;
  out.port = static_cast<std::uint16_t>(p);
  out.port_given = true;
  return out;
}

}  // namespace ldpgraph
