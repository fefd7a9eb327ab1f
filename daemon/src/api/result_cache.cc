#include "api/result_cache.h"

namespace ldpgraph {

std::shared_ptr<const Matrix> ResultCache::Find(std::uint64_t version, std::uint64_t graph) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = entries_.find({version, graph});
  return it == entries_.end() ? nullptr : it->second;
}

void ResultCache::Put(std::uint64_t version, std::uint64_t graph, Matrix probabilities) {
  std::lock_guard<std::mutex> lock(mu_);
  const Key key{version, graph};
  if (entries_.count(key)) return;
  entries_[key] = std::make_shared<const Matrix>(std::move(probabilities));
  order_.push_back(key);
  while (order_.size() > max_entries_) {
    entries_.erase(order_.front());
    order_.pop_front();
  }
}

}  // namespace ldpgraph
