// The 10 folds graph classification is reported on: the GIN paper's
// (DATASET_DIR/10fold_idx/train_idx-K.txt and test_idx-K.txt, K = 1..10,
// 0-based graph indices), or, for a dataset without them (IMDB-BINARY),
// 10 stratified folds drawn from a seed.
#ifndef LDPGRAPH_DAEMON_GW_GRAPH_FOLDS_H_
#define LDPGRAPH_DAEMON_GW_GRAPH_FOLDS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "ldpgraph/status.h"

namespace ldpgraph {

struct GraphFold {
  std::vector<std::uint32_t> train, test;
};

// Errors: kInvalidArgument naming the file and line of a bad index (not a
// number, or not below `graphs`), or a fold whose files are missing while
// others exist.
Result<std::vector<GraphFold>> ReadGraphFolds(const std::string& dir, std::uint32_t graphs);

std::vector<GraphFold> StratifiedGraphFolds(const std::vector<std::uint32_t>& labels, int folds, std::uint64_t seed);

struct DatasetFolds {
  std::vector<GraphFold> folds;
  bool from_gin_paper = false;  // false: 10 stratified folds from seed 0
};

// The folds of the dataset at `dataset_path` (a file or its directory):
// `folds_dir`, or when empty DATASET_DIR/10fold_idx, when they exist; 10
// stratified folds otherwise. Errors: ReadGraphFolds'.
Result<DatasetFolds> FoldsForDataset(const std::string& dataset_path, const std::string& folds_dir,
                                     const std::vector<std::uint32_t>& labels);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_GW_GRAPH_FOLDS_H_
