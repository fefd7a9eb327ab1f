// The prior probability that two users are friends, from their degrees
// alone: the beta-model (Chatterjee, Diaconis and Sly), in which i and j are
// friends with probability sigmoid(beta_i + beta_j) independently, fitted so
// that every user's expected degree is her estimated degree. Blink's prior.
//
// The fit is the model's fixed-point iteration
//   beta_i <- log d_i - log sum_{j != i} 1 / (e^-beta_j + e^beta_i),
// run over groups of users with nearly the same degree (their betas are
// equal at the fixed point): the degrees are bucketed on a 1% log scale, so
// an iteration costs O(G^2) for G groups (a few hundred to a few thousand),
// never O(n^2).
#ifndef LDPGRAPH_DAEMON_LINKLDP_DEGREE_PRIOR_H_
#define LDPGRAPH_DAEMON_LINKLDP_DEGREE_PRIOR_H_

#include <cstdint>
#include <vector>

namespace ldpgraph {

class DegreePrior {
 public:
  // `degrees[i]`: user i's estimated degree (clamped to [0, n - 1]).
  // Degrees below `floor` count as `floor`: the beta of degree 0 is -inf.
  static DegreePrior Fit(const std::vector<double>& degrees, double floor = 0.5);

  // sigmoid(beta_i + beta_j), i != j.
  double Probability(std::uint32_t i, std::uint32_t j) const;
  // The same as a log-odds: beta_i + beta_j.
  double LogOdds(std::uint32_t i, std::uint32_t j) const { return beta_[i] + beta_[j]; }
  double Beta(std::uint32_t i) const { return beta_[i]; }
  // Largest relative gap between a group's expected and target degree.
  double residual() const { return residual_; }

 private:
  std::vector<double> beta_;
  double residual_ = 0;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_LINKLDP_DEGREE_PRIOR_H_
