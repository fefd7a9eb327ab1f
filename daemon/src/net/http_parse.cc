#include "net/http_parse.h"

#include <boost/beast/core/buffers_prefix.hpp>
#include <boost/beast/http.hpp>

#include "net/beast_framing.h"

namespace ldpgraph {

Result<HttpRequest> ParseHttpRequest(const std::string& raw, std::size_t max_body_bytes) {
  namespace http = boost::beast::http;
  http::request_parser<http::string_body> parser;
  parser.header_limit(kMaxHttpHeaderBytes);
  parser.body_limit(max_body_bytes);
  parser.eager(true);
  boost::beast::error_code ec;
  parser.put(boost::asio::buffer(raw.data(), raw.size()), ec);
  if (!ec && !parser.is_done()) parser.put_eof(ec);
  if (ec == http::error::body_limit) return Status::ResourceExhausted("body too large");
  if (ec) return Status::InvalidArgument("bad HTTP request: " + ec.message());
  if (!parser.is_done()) return Status::InvalidArgument("incomplete HTTP request");
  auto& req = parser.get();
  std::string transfer_encoding;
  if (auto refusal = CheckRequestFraming(FramingOf(req.base(), &transfer_encoding))) {
    return Status::InvalidArgument("bad HTTP request: " + refusal->body);
  }
  HttpRequest out;
  out.method = std::string(req.method_string());
  out.target = std::string(req.target());
  out.authorization = std::string(req[http::field::authorization]);
  out.content_type = std::string(req[http::field::content_type]);
  out.accept = std::string(req[http::field::accept]);
  out.remote_address = "fuzz";
  out.body = std::move(req.body());
  return out;
}

}  // namespace ldpgraph
