#include "support/audit.h"

#include <cmath>
#include <set>

#include "support/stats.h"

namespace ldpgraph {
namespace testing {

AuditResult AuditEpsilon(const std::function<std::string()>& sample_a,
                         const std::function<std::string()>& sample_b, std::uint64_t runs,
                         double delta_total) {
  std::map<std::string, std::uint64_t> a, b;
  for (std::uint64_t i = 0; i < runs; ++i) {
    ++a[sample_a()];
    ++b[sample_b()];
  }
  std::set<std::string> keys;
  for (const auto& kv : a) keys.insert(kv.first);
  for (const auto& kv : b) keys.insert(kv.first);

  AuditResult result;
  result.outputs = keys.size();
  // Two bounds per output and direction.
  const double delta = delta_total / (4.0 * static_cast<double>(keys.size()));
  for (const std::string& key : keys) {
    const std::uint64_t ka = a.count(key) ? a[key] : 0;
    const std::uint64_t kb = b.count(key) ? b[key] : 0;
    for (int dir = 0; dir < 2; ++dir) {
      const std::uint64_t num = dir == 0 ? ka : kb, den = dir == 0 ? kb : ka;
      const double lower = ProbabilityLowerBound(num, runs, delta);
      const double upper = ProbabilityUpperBound(den, runs, delta);
      if (lower > 0.0) {
        const double certified = std::log(lower / upper);
        if (certified > result.max_lower_bound) {
          result.max_lower_bound = certified;
          result.worst_output = key;
        }
      }
      if (num >= 1000 && den >= 1000) {
        result.max_estimate = std::fmax(result.max_estimate,
                                        std::log(static_cast<double>(num) / static_cast<double>(den)));
      }
    }
  }
  return result;
}

}  // namespace testing
}  // namespace ldpgraph
