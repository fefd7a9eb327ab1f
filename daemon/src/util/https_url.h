// https://HOST[:PORT][/] as the tools take a daemon's address on the
// command line: the host and the port (443 when none is given).
#ifndef LDPGRAPH_DAEMON_UTIL_HTTPS_URL_H_
#define LDPGRAPH_DAEMON_UTIL_HTTPS_URL_H_

#include <cstdint>
#include <optional>
#include <string>

namespace ldpgraph {

struct HttpsUrl {
  std::string host;
  std::uint16_t port = 443;
  bool port_given = false;
};

// nullopt for another scheme, an empty host, or a port that is not 1..65535.
std::optional<HttpsUrl> ParseHttpsUrl(const std::string& url);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_UTIL_HTTPS_URL_H_
