// A C-SVC on a precomputed kernel whose training points carry weights: point
// i's dual variable is bounded by weight_i * C instead of C.
//
// Why: when several training graphs coincide (the same row of distances and
// the same label), the C-SVC dual depends on their variables only through
// their sum, so the SVM of the whole set is exactly the SVM of its distinct
// graphs, each weighted by how many it stands for. The summary encoder turns
// a thousand graphs into a few dozen distinct points; libsvm, which cannot
// weight single points, sees the thousand, and on PROTEINS its solver ran to
// its iteration cap at most of the grid. This one sees the few dozen.
//
// The solver is libsvm's in substance: SMO with the second-order working set
// selection of Fan, Chen and Lin (2005), stopping when the largest violation
// of the optimality conditions is below `tolerance` (libsvm's eps, 1e-3), and
// the same bias. Several classes: one against one, each pair's vote going to
// the first class when its decision value is positive, the prediction being
// the class with the most votes (ties: the one seen first in training).
#ifndef LDPGRAPH_DAEMON_GW_WEIGHTED_SVM_H_
#define LDPGRAPH_DAEMON_GW_WEIGHTED_SVM_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include <Eigen/Core>

namespace ldpgraph {

class WeightedSvm {
 public:
  // `kernel`: the training points' kernel (points x points); `labels` and
  // `weights` (each > 0) one per point; c > 0. Needs at least one point.
  static WeightedSvm Train(const Eigen::MatrixXd& kernel, const std::vector<std::uint32_t>& labels,
                           const std::vector<double>& weights, double c, double tolerance = 1e-3);

  // One decision value per pair of classes, in libsvm's order: (0,1), (0,2),
  // .., (1,2), .. of the classes as first seen. `row`: the query's kernel
  // against every training point.
  std::vector<double> DecisionValues(const Eigen::VectorXd& row) const;

  std::uint32_t Predict(const Eigen::VectorXd& row) const;

 private:
  struct Pair {
    std::vector<std::size_t> points;  // training points of either class
    std::vector<double> coef;         // y_i alpha_i, one per point
    double rho = 0;
  };
  std::vector<std::uint32_t> classes_;  // in order of first appearance
  std::vector<Pair> pairs_;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_GW_WEIGHTED_SVM_H_
