#include "train/splits.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "ldpgraph/random_source.h"
#include "ldpgraph/samplers.h"

namespace ldpgraph {

Split StratifiedSplit(const std::vector<int>& labels, double train, double val, std::uint64_t seed) {
  std::map<int, std::vector<std::uint32_t>> by_class;
  for (std::uint32_t i = 0; i < labels.size(); ++i) {
    if (labels[i] >= 0) by_class[labels[i]].push_back(i);
  }
  SeededRandomSource rng(seed);
  Split s;
  for (auto& [label, items] : by_class) {
    for (std::size_t i = items.size(); i > 1; --i) std::swap(items[i - 1], items[UniformBelow(rng, i)]);
    const auto n_train = static_cast<std::size_t>(std::floor(train * items.size()));
    const auto n_val = static_cast<std::size_t>(std::floor(val * items.size()));
    s.train.insert(s.train.end(), items.begin(), items.begin() + n_train);
    s.val.insert(s.val.end(), items.begin() + n_train, items.begin() + n_train + n_val);
    s.test.insert(s.test.end(), items.begin() + n_train + n_val, items.end());
  }
  for (auto* part : {&s.train, &s.val, &s.test}) std::sort(part->begin(), part->end());
  return s;
}

std::vector<int> Masked(const std::vector<int>& labels, const std::vector<std::uint32_t>& rows) {
  std::vector<int> masked(labels.size(), -1);
  for (auto r : rows) masked[r] = labels[r];
  return masked;
}

double Accuracy(const Matrix& probs, const std::vector<int>& labels, const std::vector<std::uint32_t>& rows) {
  if (rows.empty()) return 0.0;
  std::size_t correct = 0;
  for (auto r : rows) {
    Eigen::Index best;
    probs.row(r).maxCoeff(&best);
    correct += best == labels[r];
  }
  return static_cast<double>(correct) / static_cast<double>(rows.size());
}

// AUC of `scores` for positives vs negatives (Mann-Whitney U with mid-ranks).
double BinaryAuc(std::vector<std::pair<float, bool>> scored) {
  std::sort(scored.begin(), scored.end());
  double positives = 0, rank_sum = 0;
  for (std::size_t i = 0; i < scored.size();) {
    std::size_t j = i;
    while (j < scored.size() && scored[j].first == scored[i].first) ++j;
    const double mid_rank = (static_cast<double>(i) + static_cast<double>(j - 1)) / 2.0 + 1.0;
    for (std::size_t k = i; k < j; ++k) {
      if (scored[k].second) {
        rank_sum += mid_rank;
        positives += 1;
      }
    }
    i = j;
  }
  const double negatives = static_cast<double>(scored.size()) - positives;
  if (positives == 0 || negatives == 0) return std::nan("");
  return (rank_sum - positives * (positives + 1) / 2.0) / (positives * negatives);
}

double RocAuc(const Matrix& probs, const std::vector<int>& labels, const std::vector<std::uint32_t>& rows) {
  const Eigen::Index classes = probs.cols();
  if (classes == 2) {
    std::vector<std::pair<float, bool>> scored;
    for (auto r : rows) scored.emplace_back(probs(r, 1), labels[r] == 1);
    return BinaryAuc(std::move(scored));
  }
  double sum = 0;
  int counted = 0;
  for (Eigen::Index c = 0; c < classes; ++c) {
    std::vector<std::pair<float, bool>> scored;
    for (auto r : rows) scored.emplace_back(probs(r, c), labels[r] == c);
    const double auc = BinaryAuc(std::move(scored));
    if (!std::isnan(auc)) {
      sum += auc;
      ++counted;
    }
  }
  return counted > 0 ? sum / counted : std::nan("");
}

}  // namespace ldpgraph
