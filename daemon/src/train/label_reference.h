// Label KProp's propagated labels, and how accurate they are, told from
// randomized labels alone.
//
// A server that holds labels randomized by k-ary RR (keep: Pr the label is
// the user's; flip: Pr it is one given other class) judges its models on
// validation users against some reference: the labels as they are (right
// with Pr keep), or their label KProp (LPGNN's denoising), which is far
// cleaner on a homophilous graph (Cora at label epsilon 1: 0.64 against
// 0.31) and worse than the raw labels where friends rarely share a class.
// Which one to trust can be estimated without a clean label: a reference
// label r of a user whose randomized label is y' agrees with it with
//   Pr[y' = r] = keep * Pr[r right] + flip * Pr[r wrong],
// so agreement measured on users whose own label did not go into r gives
// Pr[r right] = (agreement - flip) / (keep - flip).
#ifndef LDPGRAPH_DAEMON_TRAIN_LABEL_REFERENCE_H_
#define LDPGRAPH_DAEMON_TRAIN_LABEL_REFERENCE_H_

#include <cstdint>
#include <vector>

#include "graph/graph_batch.h"

namespace ldpgraph {

// The argmax of KProp_k over `graph` of the one-hot labels (-1: none), the
// rows of `hidden` zeroed first, for each k of `steps` (increasing, > 0),
// all from one propagation; -1 where nothing propagated.
std::vector<std::vector<int>> PropagatedLabels(const std::vector<int>& labels, const std::vector<std::uint32_t>& hidden,
                                               const PreparedGraph& graph, const std::vector<int>& steps,
                                               int classes);

// For each k of `steps`, the estimated share of the users outside `test`
// whose k-step propagated label is their true class: labels propagated from
// one half of them are checked against the other half's randomized labels,
// and the other way round (halves drawn from `seed`). A user whom nothing
// reaches keeps her own label, right with Pr keep, as the reference does.
// Requires keep > flip.
std::vector<double> EstimatedReferenceAccuracy(const std::vector<int>& labels, const std::vector<std::uint32_t>& test,
                                               const PreparedGraph& graph, const std::vector<int>& steps,
                                               int classes, double keep, double flip, std::uint64_t seed);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_TRAIN_LABEL_REFERENCE_H_
