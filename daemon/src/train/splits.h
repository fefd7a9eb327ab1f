// Stratified train/validation/test splits from a seed, and the metrics.
#ifndef LDPGRAPH_DAEMON_TRAIN_SPLITS_H_
#define LDPGRAPH_DAEMON_TRAIN_SPLITS_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "engine/matrix.h"

namespace ldpgraph {

struct Split {
  std::vector<std::uint32_t> train, val, test;
};

// Per class: shuffle its items with `seed`, the first floor(train * count)
// go to train, the next floor(val * count) to validation, the rest to test.
// Items with label < 0 are left out.
Split StratifiedSplit(const std::vector<int>& labels, double train, double val, std::uint64_t seed);

// The labels of `rows` only, -1 (ignored by the losses) everywhere else.
std::vector<int> Masked(const std::vector<int>& labels, const std::vector<std::uint32_t>& rows);

// Fraction of rows whose argmax equals the label (rows listed in `rows`).
double Accuracy(const Matrix& probs, const std::vector<int>& labels, const std::vector<std::uint32_t>& rows);
// ROC AUC of (score, positive) pairs: the chance that a random positive
// scores above a random negative, ties counting half (Mann-Whitney). NaN
// without both kinds.
double BinaryAuc(std::vector<std::pair<float, bool>> scored);
// ROC AUC: binary on the class-1 score; macro one-vs-rest for more classes
// (over classes present both in and out). Ties count one half.
double RocAuc(const Matrix& probs, const std::vector<int>& labels, const std::vector<std::uint32_t>& rows);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_TRAIN_SPLITS_H_
