// Parses one complete HTTP/1.1 request from bytes with the server's limits
// (Beast's parser, as the network layer uses it). For the fuzzer and tests:
// the server itself parses incrementally from the socket.
#ifndef LDPGRAPH_DAEMON_NET_HTTP_PARSE_H_
#define LDPGRAPH_DAEMON_NET_HTTP_PARSE_H_

#include <string>

#include "ldpgraph/status.h"
#include "net/http_types.h"

namespace ldpgraph {

// Errors: kInvalidArgument with the parser's message (kResourceExhausted
// when the body exceeds max_body_bytes, which the server answers with 413).
Result<HttpRequest> ParseHttpRequest(const std::string& raw, std::size_t max_body_bytes);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_NET_HTTP_PARSE_H_
