#include "ldpgraph/report.h"

#include <cmath>
#include <limits>

namespace ldpgraph {

double ReportEpsilon(const Report& report) {
  if (report.has_embedding || report.has_summary) {
    const double encoded = report.has_embedding ? report.embedding.epsilon : report.summary.epsilon;
    return encoded + (report.has_label ? report.label.epsilon : 0.0);
  }
  double total = report.edges.mechanism == EdgeMechanism::kNone
                     ? std::numeric_limits<double>::infinity()
                     : report.edges.epsilon;
  if (report.has_features) total += report.features.epsilon;
  if (report.has_label) total += report.label.epsilon;
  return total;
}

std::string ReportIdToHex(const ReportId& id) {
  static const char kHex[] = "0123456789abcdef";
  std::string s;
  s.reserve(32);
  for (std::uint8_t b : id) {
    s.push_back(kHex[b >> 4]);
    s.push_back(kHex[b & 15]);
  }
  return s;
}

}  // namespace ldpgraph
