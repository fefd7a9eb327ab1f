#include "train/label_reference.h"

#include "engine/sparse_matrix.h"
#include "ldpgraph/random_source.h"

namespace ldpgraph {

std::vector<std::vector<int>> PropagatedLabels(const std::vector<int>& labels, const std::vector<std::uint32_t>& hidden,
                                               const PreparedGraph& graph, const std::vector<int>& steps,
                                               int classes) {
  Matrix y = Matrix::Zero(static_cast<Eigen::Index>(labels.size()), classes);
  for (std::size_t i = 0; i < labels.size(); ++i) {
    if (labels[i] >= 0) y(static_cast<Eigen::Index>(i), labels[i]) = 1.0f;
  }
  for (std::uint32_t t : hidden) y.row(t).setZero();
  std::vector<std::vector<int>> out;
  Matrix next;
  int done = 0;
  for (int wanted : steps) {
    for (; done < wanted; ++done) {
      SpMM(graph.agg, y, &next);
      y.swap(next);
    }
    std::vector<int>& propagated = out.emplace_back(labels.size(), -1);
    for (Eigen::Index i = 0; i < y.rows(); ++i) {
      Eigen::Index best = 0;
      if (y.row(i).maxCoeff(&best) > 0) propagated[static_cast<std::size_t>(i)] = static_cast<int>(best);
    }
  }
  return out;
}

std::vector<double> EstimatedReferenceAccuracy(const std::vector<int>& labels, const std::vector<std::uint32_t>& test,
                                               const PreparedGraph& graph, const std::vector<int>& steps,
                                               int classes, double keep, double flip, std::uint64_t seed) {
  const std::size_t n = labels.size();
  std::vector<char> half(n, 0);  // 0: test or unlabelled; 1 or 2: the user's half
  SeededRandomSource rng(seed ^ 0x4ef3ULL);
  for (std::size_t i = 0; i < n; ++i) half[i] = labels[i] >= 0 ? static_cast<char>(1 + (rng.NextU64() & 1)) : 0;
  for (std::uint32_t t : test) half[t] = 0;
  // Per step count: agreements and users reached, and users nothing reached.
  std::vector<double> agree(steps.size(), 0.0), reached(steps.size(), 0.0), unreached(steps.size(), 0.0);
  for (char judged : {1, 2}) {
    std::vector<std::uint32_t> hidden;  // the judged half, the test users and the unlabelled
    for (std::size_t i = 0; i < n; ++i) {
      if (half[i] != 3 - judged) hidden.push_back(static_cast<std::uint32_t>(i));
    }
    const std::vector<std::vector<int>> propagated = PropagatedLabels(labels, hidden, graph, steps, classes);
    for (std::size_t k = 0; k < steps.size(); ++k) {
      for (std::size_t i = 0; i < n; ++i) {
        if (half[i] != judged) continue;
        if (propagated[k][i] < 0) {
          unreached[k] += 1;
        } else {
          reached[k] += 1;
          agree[k] += propagated[k][i] == labels[i];
        }
      }
    }
  }
  std::vector<double> accuracy(steps.size(), 0.0);
  for (std::size_t k = 0; k < steps.size(); ++k) {
    const double users = reached[k] + unreached[k];
    if (users == 0) continue;
    // Nothing reached her: the reference falls back to her own label.
    const double right = reached[k] > 0 ? reached[k] * (agree[k] / reached[k] - flip) / (keep - flip) : 0.0;
    accuracy[k] = (right + unreached[k] * keep) / users;
  }
  return accuracy;
}

}  // namespace ldpgraph
