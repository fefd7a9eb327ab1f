// What the mechanisms that send a noisy degree share (DPRR, RR with degree,
// LocalLap): epsilon split into eps1 for the degree, sent through the discrete
// Laplace mechanism, and eps2 for the neighbour bits. One object holds the
// split, its checks and the fields every such report carries alike, so the
// three mechanisms differ only in how they randomize the bits.
#ifndef LDPGRAPH_DEGREE_BUDGET_H_
#define LDPGRAPH_DEGREE_BUDGET_H_

#include <cstdint>

#include "ldpgraph/edge_mechanism.h"
#include "ldpgraph/randomized_response.h"  // KeepProbability
#include "ldpgraph/samplers.h"

namespace ldpgraph {

struct BudgetSplit {
  double eps1 = 0;  // degree
  double eps2 = 0;  // bits
};

// Splits `epsilon` by `allocation`. The paper's rule (eq. 8, alpha_b = 0.9)
// needs n_max >= 2, the largest graph's user count. Errors: kInvalidArgument
// for NaN, infinite or non-positive epsilon, n_max < 2, or a split that
// leaves eps2 <= 0 (epsilon too small for n_max under eq. 8).
Result<BudgetSplit> AllocateBudget(double epsilon, BudgetAllocation allocation,
                                   std::uint32_t n_max);

class DegreeBudget {
 public:
  // Sets the budget for a graph of n users. Errors: kInvalidArgument for
  // n < 2, n_max < n (0 stands for n), and AllocateBudget's errors; on error
  // the budget is unchanged. (A Status rather than a Result<DegreeBudget>:
  // one Result type less is 140 bytes of a Cortex-M image's 64 KB.)
  Status Set(std::uint32_t n, double epsilon, BudgetAllocation allocation, std::uint32_t n_max);

  std::uint32_t num_users() const { return n_; }
  double epsilon() const { return epsilon_; }
  BudgetAllocation allocation() const { return allocation_; }
  const BudgetSplit& split() const { return split_; }
  // The noise added to the true degree: DiscreteLaplace(eps1).
  const DiscreteLaplace& degree_noise() const { return degree_noise_; }
  // A neighbour bit's keep probability under Warner's RR at eps2.
  double bit_keep_probability() const { return KeepProbability(split_.eps2); }

  // Sets the fields a report of `mechanism` carries from its budget
  // (mechanism, allocation, epsilon, eps1, eps2) and resets the others to the
  // defaults of NoisyEdges (p = q = 1, resolution 1, no noisy degree, no
  // values), which the mechanism then overwrites where it uses them. The
  // neighbour list is left alone: its buffer is reused.
  void Describe(EdgeMechanism mechanism, NoisyEdges* out) const;

 private:
  std::uint32_t n_ = 2;
  double epsilon_ = 1;
  BudgetAllocation allocation_ = BudgetAllocation::kPaper;
  BudgetSplit split_;
  DiscreteLaplace degree_noise_;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DEGREE_BUDGET_H_
