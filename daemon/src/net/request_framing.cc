#include "net/request_framing.h"

#include <string>
#include <vector>

#include "net/json_response.h"

namespace ldpgraph {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t'; }

bool EqualsNoCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const char x = a[i] >= 'A' && a[i] <= 'Z' ? static_cast<char>(a[i] - 'A' + 'a') : a[i];
    if (x != b[i]) return false;
  }
  return true;
}

// The list's elements with their spaces trimmed; empty elements (", ,") are
// allowed by the list syntax and skipped.
std::vector<std::string_view> Codings(std::string_view list) {
  std::vector<std::string_view> out;
  while (!list.empty()) {
    const std::size_t comma = list.find(',');
    std::string_view item = list.substr(0, comma);
    while (!item.empty() && IsSpace(item.front())) item.remove_prefix(1);
    while (!item.empty() && IsSpace(item.back())) item.remove_suffix(1);
    if (!item.empty()) out.push_back(item);
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
  }
  return out;
}

HttpResponse Refuse(int status, const std::string& message) {
  return ErrorResponse(status, status == 501 ? "unsupported_transfer_coding" : "malformed", message);
}

}  // namespace

std::optional<HttpResponse> CheckRequestFraming(const FramingHeaders& h) {
  if (!h.has_transfer_encoding) return std::nullopt;
  if (h.http_1_0) return Refuse(400, "Transfer-Encoding in an HTTP/1.0 request");
  if (h.has_content_length) return Refuse(400, "both Transfer-Encoding and Content-Length");
  const std::vector<std::string_view> codings = Codings(h.transfer_encoding);
  if (codings.empty()) return Refuse(400, "an empty Transfer-Encoding");
  // Quoted for the message, at most 64 bytes of it (JsonQuote makes any byte safe).
  const std::string last(codings.back().substr(0, 64));
  if (!EqualsNoCase(codings.back(), "chunked")) {
    return Refuse(400, "the final transfer coding is '" + last + "', not chunked: the body has no defined end");
  }
  for (std::size_t i = 0; i + 1 < codings.size(); ++i) {
    if (EqualsNoCase(codings[i], "chunked")) return Refuse(400, "chunked applied more than once");
  }
  if (codings.size() > 1) {
    return Refuse(501, "transfer coding '" + std::string(codings.front().substr(0, 64)) +
                           "' is not implemented (only chunked is)");
  }
  return std::nullopt;
}

}  // namespace ldpgraph
