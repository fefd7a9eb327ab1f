// Empirical epsilon audit: run a mechanism many times on two neighbouring
// inputs, count every output, and bound the privacy loss from below.
//
// For each output o, a Chernoff bound gives, with probability >= 1 - delta
// each, Pr_a[o] >= L_a(o) and Pr_b[o] <= U_b(o). If L_a(o) / U_b(o) > e^eps
// for some o, the claim "eps-LDP" is refuted with confidence ~ 1 - 2 delta K
// (K outputs; delta is Bonferroni-corrected by the caller's choice).
#ifndef LDPGRAPH_TESTS_SUPPORT_AUDIT_H_
#define LDPGRAPH_TESTS_SUPPORT_AUDIT_H_

#include <cstdint>
#include <functional>
#include <map>
#include <string>

namespace ldpgraph {
namespace testing {

struct AuditResult {
  double max_lower_bound = 0;  // largest certified log-ratio over outputs, both directions
  double max_estimate = 0;     // largest plug-in log-ratio among well-populated outputs
  std::size_t outputs = 0;     // distinct outputs seen
  std::string worst_output;
};

// `sample_a` / `sample_b` run the mechanism once on each input and return the
// output as a string key (everything the server would see).
AuditResult AuditEpsilon(const std::function<std::string()>& sample_a,
                         const std::function<std::string()>& sample_b, std::uint64_t runs,
                         double delta_total);

}  // namespace testing
}  // namespace ldpgraph

#endif  // LDPGRAPH_TESTS_SUPPORT_AUDIT_H_
