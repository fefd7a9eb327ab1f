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
#include <memory>
#include <vector>

#include "engine/matrix.h"
#include "engine/node_features.h"

namespace ldpgraph {

struct PairSideInformation {
  const Matrix* class_probabilities = nullptr;  // n x classes, rows summing to 1; null: unused
  const NodeFeatures* features = nullptr;       // n x dims; null: unused
};

class LearnedPrior {
 public:
  // Bins the pairs' similarities at the quantiles of `background_pairs`
  // uniform random pairs drawn with `seed` (the sample is not private
  // data). Requires at least one kind of side information, which must
  // outlive the prior. R starts at 1 (the degree prior).
  LearnedPrior(const PairSideInformation& side, std::uint32_t num_users, std::size_t background_pairs,
               std::uint64_t seed);

  int cells() const { return static_cast<int>(background_.size()); }
  // The cell of any pair, on its own.
  int Cell(std::uint32_t i, std::uint32_t j) const;
  // The cells of one row's pairs: Reset(i) once (it spreads i's side
  // information into a dense scratch row), then Cell(j) per pair. Not
  // thread-safe: one per thread.
  class Row {
   public:
    explicit Row(const LearnedPrior& prior);
    void Reset(std::uint32_t i);
    int Cell(std::uint32_t j) const;

   private:
    const LearnedPrior& prior_;
    std::uint32_t i_ = 0;
    bool spread_ = false;
    std::vector<float> x_;  // row i's normalised features, dense (sparse features only)
  };

  // One M step: `mass[c]` is the posterior mass of the candidate pairs in
  // cell c, each pair counted once.
  void Fit(const std::vector<double>& mass);
  double LogFactor(int cell) const { return log_ratio_[static_cast<std::size_t>(cell)]; }

 private:
  struct Similarity;
  int CellOf(double agreement, double cosine) const;

  std::shared_ptr<const Similarity> similarity_;
  std::vector<double> agreement_edges_, cosine_edges_;
  std::vector<double> background_;  // share of random pairs per cell
  std::vector<double> log_ratio_;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_LINKLDP_LEARNED_PRIOR_H_
