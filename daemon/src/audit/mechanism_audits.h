// What `ldpgraph audit mechanisms` audits: every mechanism the product
// ships, each on worst-case neighbouring inputs through its real code path,
// and deliberately broken test doubles that the audit must catch (its
// power). Outputs are reduced to keys that keep everything the server sees
// (or a post-processing of it), with the few users and dimensions that let
// an audit count every output.
#ifndef LDPGRAPH_DAEMON_AUDIT_MECHANISM_AUDITS_H_
#define LDPGRAPH_DAEMON_AUDIT_MECHANISM_AUDITS_H_

#include <string>
#include <vector>

#include "audit/epsilon_audit.h"
#include "ldpgraph/status.h"

namespace ldpgraph {

struct MechanismAudit {
  std::string name;      // e.g. "dprr-paper"
  double claimed = 0;    // the epsilon the mechanism claims
  double delta = 0;      // and its delta (0: pure epsilon-DP)
  std::string inputs;    // the neighbouring inputs, for the report
  AuditSampler a, b;
  bool broken = false;   // a test double that breaks its claim: the audit must refute it
};

// The shipped mechanisms at `epsilon`. Errors: kInvalidArgument for an
// epsilon a mechanism refuses.
Result<std::vector<MechanismAudit>> ShippedMechanismAudits(double epsilon);

// The broken doubles, each claiming `epsilon`:
//   dprr-without-degree-noise  DPRR whose q comes from the true degree
//   laplace-quarter-noise      a degree's discrete Laplace at a quarter of the scale
//   floating-point-laplace     x + Laplace(1 / epsilon) in doubles (Mironov 2012):
//                              its outputs' low bits tell the inputs apart
//   gap-aggregation-quarter-noise  GAP's aggregation with a quarter of its noise
Result<std::vector<MechanismAudit>> BrokenMechanismAudits(double epsilon);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_AUDIT_MECHANISM_AUDITS_H_
