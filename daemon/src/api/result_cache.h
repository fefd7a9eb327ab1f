// ResultCache: what a model predicted for every user (node models) or for
// a graph (graph models), kept per (model version, graph) once computed.
// Devices poll for their own result; a forward pass over every user per
// request would cost as much as the admin's prediction for all of them.
// A result is computed at the first request after its model is trained and
// stays that model's answer: a newer model's result for the graph drops
// the older one's, which no device is served again.
// Bounded by bytes, not entries (issue 66: 8 entries made a graph model
// over 12 graphs assemble a graph at almost every request): results are a
// few bytes a user, so every graph of a model is kept once computed, up to
// `max_bytes`, each leased from the memory budget; past either, the least
// recently used go first.
// Thread-safety: every method may be called from any thread.
#ifndef LDPGRAPH_DAEMON_API_RESULT_CACHE_H_
#define LDPGRAPH_DAEMON_API_RESULT_CACHE_H_

#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <utility>

#include "engine/matrix.h"
#include "jobs/memory_budget.h"

namespace ldpgraph {

class ResultCache {
 public:
  // `budget` (optional): each result leases its bytes from it.
  explicit ResultCache(std::uint64_t max_bytes, MemoryBudget* budget = nullptr)
      : max_bytes_(max_bytes), budget_(budget) {}

  // Null when absent.
  std::shared_ptr<const Matrix> Find(std::uint64_t version, std::uint64_t graph);
  // Keeps the result when it fits (making room by dropping the least
  // recently used), and hands it back either way.
  std::shared_ptr<const Matrix> Put(std::uint64_t version, std::uint64_t graph, Matrix probabilities);
  std::uint64_t bytes() const;
  std::size_t entries() const;

 private:
  struct Entry {
    std::uint64_t version = 0, graph = 0;
    std::shared_ptr<const Matrix> result;
    std::uint64_t bytes = 0;
    MemoryBudget::Lease lease;
  };
  using Entries = std::list<Entry>;  // most recently used first
  void Drop(Entries::iterator it);

  const std::uint64_t max_bytes_;
  MemoryBudget* const budget_;
  mutable std::mutex mu_;
  Entries entries_;
  std::map<std::pair<std::uint64_t, std::uint64_t>, Entries::iterator> index_;  // (graph, version)
  std::uint64_t bytes_ = 0;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_API_RESULT_CACHE_H_
