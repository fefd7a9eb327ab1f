// Every labelled user's label through k-ary randomized response (the SDK's
// LabelRandomizer), as the experiments and benchmarks simulate devices.
#ifndef LDPGRAPH_DAEMON_PRIVACY_LABEL_RANDOMIZATION_H_
#define LDPGRAPH_DAEMON_PRIVACY_LABEL_RANDOMIZATION_H_

#include <cstdint>
#include <vector>

#include "ldpgraph/status.h"

namespace ldpgraph {

// Replaces every label >= 0 of `labels` (in [0, classes)) by its randomized
// response at `epsilon`, in order, from one stream seeded by `seed`; -1
// (unknown) stays. Errors: LabelRandomizer's, for bad classes or epsilon
// (nothing changed), or a label out of range (labels before it changed).
Status RandomizeLabels(int classes, double epsilon, std::uint64_t seed, std::vector<int>* labels);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_PRIVACY_LABEL_RANDOMIZATION_H_
