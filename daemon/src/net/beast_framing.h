// The framing headers of a request Beast has parsed, for CheckRequestFraming.
// Only for the two Beast users (https_server.cc and http_parse.cc).
#ifndef LDPGRAPH_DAEMON_NET_BEAST_FRAMING_H_
#define LDPGRAPH_DAEMON_NET_BEAST_FRAMING_H_

#include <string>

#include <boost/beast/http/message.hpp>

#include "net/request_framing.h"

namespace ldpgraph {

// `joined` holds the Transfer-Encoding list the result points into.
inline FramingHeaders FramingOf(const boost::beast::http::request_header<>& header, std::string* joined) {
  namespace http = boost::beast::http;
  FramingHeaders h;
  for (const auto& field : header) {
    if (field.name() == http::field::transfer_encoding) {
      if (h.has_transfer_encoding) joined->append(", ");
      joined->append(field.value().data(), field.value().size());
      h.has_transfer_encoding = true;
    } else if (field.name() == http::field::content_length) {
      h.has_content_length = true;
    }
  }
  h.transfer_encoding = *joined;
  h.http_1_0 = header.version() < 11;
  return h;
}

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_NET_BEAST_FRAMING_H_
