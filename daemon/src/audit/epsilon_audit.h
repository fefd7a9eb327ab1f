// An empirical lower bound on a mechanism's epsilon (the audit of issue 52).
//
// The mechanism runs `trials` times on each of two neighbouring inputs A
// and B; each run's output is reduced to a key (everything the server sees,
// or a post-processing of it, which DP covers too). The first half of the
// runs chooses a distinguishing event E: the outputs ordered by their
// likelihood ratio (Neyman-Pearson), the prefix whose bound is largest. The
// second half, independent of that choice, measures Pr_A[E] and Pr_B[E],
// and Clopper-Pearson bounds (binomial_bounds.h) give, at the confidence
// asked for (split by Bonferroni over both bounds and both directions),
//   epsilon >= ln(lower(Pr_A[E]) / upper(Pr_B[E])),
// or for an (epsilon, delta) claim, Pr_A[E] <= e^epsilon Pr_B[E] + delta:
//   epsilon >= ln((lower(Pr_A[E]) - delta) / upper(Pr_B[E])).
// A bound above the claimed epsilon refutes the claim at that confidence.
#ifndef LDPGRAPH_DAEMON_AUDIT_EPSILON_AUDIT_H_
#define LDPGRAPH_DAEMON_AUDIT_EPSILON_AUDIT_H_

#include <cstdint>
#include <functional>
#include <string>

#include "ldpgraph/random_source.h"
#include "ldpgraph/status.h"

namespace ldpgraph {

// One run of the mechanism on one input, its output as a key.
using AuditSampler = std::function<std::string(RandomSource& rng)>;

struct EpsilonAuditOptions {
  std::uint64_t trials = 1000000;  // per input; half choose the event, half bound it
  double confidence = 0.95;
  double delta = 0;  // the claim's delta (0: pure epsilon-DP)
  // Each thread draws from its own source: seeded (reproducible, for tests)
  // or the OS CSPRNG (what devices use).
  bool seeded = false;
  std::uint64_t seed = 0;
};

struct EpsilonAuditResult {
  double lower_bound = 0;   // at the confidence asked for; 0 when nothing distinguishes
  double estimate = 0;      // the plug-in ln(Pr_A[E] / Pr_B[E]) of the same event (test half)
  std::string event;        // the event's outputs, for the report (cut at 200 characters)
  std::uint64_t event_count_a = 0, event_count_b = 0;  // in the test half, as the bound saw them
  std::size_t outputs = 0;  // distinct outputs in the selection half
};

// `sample_a` and `sample_b` must be safe to call from several threads, each
// with its own RandomSource; a sampler's failure is its own key (an output
// like any other). Errors: kInvalidArgument for fewer than 4 trials or a
// confidence outside (0, 1); kUnavailable when the OS CSPRNG cannot be read.
Result<EpsilonAuditResult> AuditEpsilon(const AuditSampler& sample_a, const AuditSampler& sample_b,
                                        const EpsilonAuditOptions& options);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_AUDIT_EPSILON_AUDIT_H_
