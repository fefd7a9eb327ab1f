#include "api/result_cache.h"

namespace ldpgraph {

std::shared_ptr<const Matrix> ResultCache::Find(std::uint64_t version, std::uint64_t graph) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = index_.find({graph, version});
  if (it == index_.end()) return nullptr;
  entries_.splice(entries_.begin(), entries_, it->second);  // most recently used now
  return it->second->result;
}

void ResultCache::Drop(Entries::iterator it) {
  bytes_ -= it->bytes;
  index_.erase({it->graph, it->version});
  entries_.erase(it);  // its lease goes back to the budget
}

std::shared_ptr<const Matrix> ResultCache::Put(std::uint64_t version, std::uint64_t graph, Matrix probabilities) {
  auto result = std::make_shared<const Matrix>(std::move(probabilities));
  const std::uint64_t bytes = static_cast<std::uint64_t>(result->size()) * sizeof(float) + 64;
  std::lock_guard<std::mutex> lock(mu_);
  if (auto found = index_.find({graph, version}); found != index_.end()) return found->second->result;
  // Older versions' results for this graph are never served again.
  for (auto it = index_.lower_bound({graph, 0}); it != index_.end() && it->first.first == graph;) {
    auto next = std::next(it);
    if (it->first.second < version) Drop(it->second);
    it = next;
  }
  if (bytes > max_bytes_) return result;
  while (bytes_ + bytes > max_bytes_) Drop(std::prev(entries_.end()));
  MemoryBudget::Lease lease;
  if (budget_ != nullptr) {
    for (;;) {
      Result<MemoryBudget::Lease> leased = budget_->TryReserve(bytes, "a cached result");
      if (leased.ok()) {
        lease = std::move(leased).value();
        break;
      }
      if (entries_.empty()) return result;  // the budget is held by work: served, not kept
      Drop(std::prev(entries_.end()));
    }
  }
  entries_.push_front(Entry{version, graph, result, bytes, std::move(lease)});
  index_[{graph, version}] = entries_.begin();
  bytes_ += bytes;
  return result;
}

std::uint64_t ResultCache::bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return bytes_;
}

std::size_t ResultCache::entries() const {
  std::lock_guard<std::mutex> lock(mu_);
  return entries_.size();
}

}  // namespace ldpgraph
