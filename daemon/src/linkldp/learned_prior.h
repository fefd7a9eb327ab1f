// A prior learned from side information the server already holds: beyond
// Blink, whose prior sees only the two degrees.
//
// Friends tend to be alike: on Cora 81% of edges join nodes of the same
// class against 18% of random pairs, and friends share more words. So the
// prior odds of a pair are the degree prior's odds times a factor R(cell),
// where the cell bins two similarities of the pair:
//   - class agreement: sum_c P_i(c) P_j(c), with P a first model's class
//     probabilities (one-hot where the server knows a training label);
//   - feature cosine: cos(x_i, x_j).
// R(cell) = P(cell | friends) / P(cell | random pair). The denominator comes
// from a uniform sample of pairs; the numerator from the candidates weighted
// by their current posterior, so R and the posteriors are refined together
// (expectation-maximisation). R averages 1 over random pairs, so the expected
// number of edges the prior implies stays the degree prior's.
//
// Everything used is what the server holds: reports, features and labels as
// received, and a model trained on them. It is post-processing: no privacy
// cost. Cells are quantile bins of the random pairs' similarities.
#ifndef LDPGRAPH_DAEMON_LINKLDP_LEARNED_PRIOR_H_
#define LDPGRAPH_DAEMON_LINKLDP_LEARNED_PRIOR_H_

#include <cstdint>
#include <vector>

#include "engine/matrix.h"
#include "engine/node_features.h"
#include "linkldp/edge_posterior.h"

namespace ldpgraph {

struct PairSideInformation {
  const Matrix* class_probabilities = nullptr;  // n x classes, rows summing to 1; null: unused
  const NodeFeatures* features = nullptr;       // n x dims; null: unused
};

class LearnedPrior {
 public:
  // Bins the candidates' similarities against `background_pairs` uniform
  // random pairs drawn with `seed` (the sample is not private data).
  // Requires at least one kind of side information.
  LearnedPrior(const CandidatePairs& candidates, const PairSideInformation& side, std::uint32_t num_users,
               std::size_t background_pairs, std::uint64_t seed);

  // Refits R from the candidates' current posteriors (one M step).
  void Fit(const std::vector<float>& posterior);
  // log R of candidate entry e.
  double LogFactor(std::uint64_t e) const { return log_ratio_[cell_[e]]; }

 private:
  std::vector<std::uint16_t> cell_;  // per candidate entry
  std::vector<double> background_;   // share of random pairs per cell
  std::vector<double> log_ratio_;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_LINKLDP_LEARNED_PRIOR_H_
