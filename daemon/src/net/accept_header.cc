#include "net/accept_header.h"

#include <cctype>
#include <cstdlib>

namespace ldpgraph {
namespace {

std::string Trimmed(const std::string& s, std::size_t begin, std::size_t end) {
  while (begin < end && (s[begin] == ' ' || s[begin] == '\t')) ++begin;
  while (end > begin && (s[end - 1] == ' ' || s[end - 1] == '\t')) --end;
  return s.substr(begin, end - begin);
}

bool EqualNoCase(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

// The weight of one media range's parameters ("; q=0.5; charset=x"): 1 without q.
double Weight(const std::string& range, std::size_t params) {
  double q = 1;
  while (params < range.size()) {
    std::size_t next = range.find(';', params + 1);
    if (next == std::string::npos) next = range.size();
    const std::string param = Trimmed(range, params + 1, next);
    if (param.size() >= 2 && (param[0] == 'q' || param[0] == 'Q') && param[1] == '=') {
      char* end = nullptr;
      q = std::strtod(param.c_str() + 2, &end);
      if (end == param.c_str() + 2) q = 0;  // "q=" with no number: not a weight to trust
    }
    params = next;
  }
  return q;
}

}  // namespace

bool AcceptsMediaType(const std::string& accept, const std::string& media_type) {
  std::size_t begin = 0;
  while (begin <= accept.size()) {
    std::size_t end = accept.find(',', begin);
    if (end == std::string::npos) end = accept.size();
    const std::string range = accept.substr(begin, end - begin);
    const std::size_t params = range.find(';');
    const std::string type = Trimmed(range, 0, params == std::string::npos ? range.size() : params);
    if (EqualNoCase(type, media_type)) return params == std::string::npos || Weight(range, params) > 0;
    begin = end + 1;
  }
  return false;
}

}  // namespace ldpgraph
