// Text safe inside HTML and SVG (XML): in element text and in
// double-quoted attributes alike. The console's pages and the experiments'
// charts both write user-supplied names into markup.
#ifndef LDPGRAPH_DAEMON_UTIL_MARKUP_ESCAPE_H_
#define LDPGRAPH_DAEMON_UTIL_MARKUP_ESCAPE_H_

#include <string>

namespace ldpgraph {

inline std::string EscapeMarkup(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_UTIL_MARKUP_ESCAPE_H_
