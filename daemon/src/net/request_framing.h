// The body framings ldpgraphd reads, checked from the header before a byte of
// the body: none, a Content-Length, or Transfer-Encoding: chunked alone.
// Anything else is where request smuggling lives (RFC 9112 section 6): a
// final coding that is not chunked leaves the body's end undefined, so the
// bytes after the header would be read as the next request; a coding we do
// not implement (gzip, identity, a misspelt "xchunked") cannot be decoded;
// Transfer-Encoding beside Content-Length lets two parsers on the path
// disagree on where the body ends.
#ifndef LDPGRAPH_DAEMON_NET_REQUEST_FRAMING_H_
#define LDPGRAPH_DAEMON_NET_REQUEST_FRAMING_H_

#include <optional>
#include <string_view>

#include "net/http_types.h"

namespace ldpgraph {

struct FramingHeaders {
  // Every Transfer-Encoding field's value, joined with ", " (a repeated
  // field is one list, RFC 9110 section 5.3); empty when there is none.
  std::string_view transfer_encoding;
  bool has_transfer_encoding = false;
  bool has_content_length = false;
  bool http_1_0 = false;
};

// nullopt when the framing is accepted; otherwise the refusal to send (400,
// or 501 for a coding ldpgraphd does not implement), after which the
// connection must close: where this body ends is unknown.
std::optional<HttpResponse> CheckRequestFraming(const FramingHeaders& h);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_NET_REQUEST_FRAMING_H_
