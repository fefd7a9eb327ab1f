#include "gw/graph_folds.h"

#include <filesystem>
#include <fstream>
#include <map>

#include "ldpgraph/random_source.h"
#include "ldpgraph/samplers.h"

namespace ldpgraph {
namespace {

Result<std::vector<std::uint32_t>> ReadIndices(const std::string& path, std::uint32_t graphs) {
  std::ifstream in(path);
  if (!in) return Status::InvalidArgument("cannot read " + path);
  std::vector<std::uint32_t> out;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty()) continue;
    std::size_t used = 0;
    unsigned long long v = 0;
    try {
      v = std::stoull(line, &used);
    } catch (...) {
      used = 0;
    }
    if (used == 0 || line.find_first_not_of(" \r\t", used) != std::string::npos || v >= graphs) {
      return Status::InvalidArgument(path + ":" + std::to_string(number) + ": '" + line +
                                     "' is not a graph index below " + std::to_string(graphs));
    }
    out.push_back(static_cast<std::uint32_t>(v));
  }
  return out;
}

}  // namespace

Result<std::vector<GraphFold>> ReadGraphFolds(const std::string& dir, std::uint32_t graphs) {
  std::vector<GraphFold> folds;
  for (int k = 1; k <= 10; ++k) {
    const std::string train = dir + "/train_idx-" + std::to_string(k) + ".txt";
    const std::string test = dir + "/test_idx-" + std::to_string(k) + ".txt";
    if (!std::ifstream(train) && !std::ifstream(test)) {
      if (k == 1) return folds;  // no folds at all
      return Status::InvalidArgument("fold " + std::to_string(k) + "'s files are missing from " + dir);
    }
    Result<std::vector<std::uint32_t>> a = ReadIndices(train, graphs);
    if (!a.ok()) return a.status();
    Result<std::vector<std::uint32_t>> b = ReadIndices(test, graphs);
    if (!b.ok()) return b.status();
    folds.push_back({std::move(a).value(), std::move(b).value()});
  }
  return folds;
}

std::vector<GraphFold> StratifiedGraphFolds(const std::vector<std::uint32_t>& labels, int folds, std::uint64_t seed) {
  std::map<std::uint32_t, std::vector<std::uint32_t>> by_class;
  for (std::uint32_t i = 0; i < labels.size(); ++i) by_class[labels[i]].push_back(i);
  SeededRandomSource rng(seed);
  std::vector<int> fold_of(labels.size());
  int next = 0;
  for (auto& [label, members] : by_class) {
    for (std::size_t i = members.size(); i > 1; --i) std::swap(members[i - 1], members[UniformBelow(rng, i)]);
    for (std::uint32_t g : members) fold_of[g] = next++ % folds;
  }
  std::vector<GraphFold> out(static_cast<std::size_t>(folds));
  for (std::uint32_t g = 0; g < labels.size(); ++g) {
    for (int f = 0; f < folds; ++f) (f == fold_of[g] ? out[static_cast<std::size_t>(f)].test : out[static_cast<std::size_t>(f)].train).push_back(g);
  }
  return out;
}

Result<DatasetFolds> FoldsForDataset(const std::string& dataset_path, const std::string& folds_dir,
                                     const std::vector<std::uint32_t>& labels) {
  std::string dir = folds_dir;
  if (dir.empty()) {
    const std::filesystem::path p(dataset_path);
    dir = ((std::filesystem::is_directory(p) ? p : p.parent_path()) / "10fold_idx").string();
  }
  Result<std::vector<GraphFold>> read = ReadGraphFolds(dir, static_cast<std::uint32_t>(labels.size()));
  if (!read.ok()) return read.status();
  DatasetFolds out;
  out.from_gin_paper = !read->empty();
  out.folds = out.from_gin_paper ? std::move(read).value() : StratifiedGraphFolds(labels, 10, 0);
  return out;
}

}  // namespace ldpgraph
