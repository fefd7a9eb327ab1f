// ResultCache: what a model predicted for every user (node models) or for
// a graph (graph models), kept per (model version, graph) once computed.
// Devices poll for their own result; a forward pass over every user per
// request would cost as much as the admin's prediction for all of them.
// A result is computed at the first request after its model is trained and
// stays that model's answer (a newer model replaces it). Holds at most
// `max_entries`, dropping the oldest. Thread-safety: every method may be
// called from any thread.
#ifndef LDPGRAPH_DAEMON_API_RESULT_CACHE_H_
#define LDPGRAPH_DAEMON_API_RESULT_CACHE_H_

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <utility>

#include "engine/matrix.h"

namespace ldpgraph {

class ResultCache {
 public:
  explicit ResultCache(std::size_t max_entries = 8) : max_entries_(max_entries) {}

  // Null when absent.
  std::shared_ptr<const Matrix> Find(std::uint64_t version, std::uint64_t graph) const;
  void Put(std::uint64_t version, std::uint64_t graph, Matrix probabilities);

 private:
  using Key = std::pair<std::uint64_t, std::uint64_t>;
  const std::size_t max_entries_;
  mutable std::mutex mu_;
  std::map<Key, std::shared_ptr<const Matrix>> entries_;
  std::deque<Key> order_;  // oldest first
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_API_RESULT_CACHE_H_
