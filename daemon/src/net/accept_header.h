// Content negotiation on the Accept header (RFC 9110, 12.5.1), as far as
// the daemon needs it: whether the client names a media type and accepts
// it. "type;q=0" names it to refuse it, so a substring search is wrong.
#ifndef LDPGRAPH_DAEMON_NET_ACCEPT_HEADER_H_
#define LDPGRAPH_DAEMON_NET_ACCEPT_HEADER_H_

#include <string>

namespace ldpgraph {

// True when `accept` lists `media_type` (case-insensitive) with a weight
// above 0 (no q parameter: weight 1). Wildcards do not count: the daemon's
// own binary forms are sent only to a client that asks for them by name.
bool AcceptsMediaType(const std::string& accept, const std::string& media_type);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_NET_ACCEPT_HEADER_H_
