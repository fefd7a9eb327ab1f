// MemoryBudget: how much memory the daemon's heavy admin work may hold at
// once: GAP jobs, GW queries, predictions and held-graph uploads each
// estimate their peak before they start and lease that much. One request
// whose estimate exceeds the whole budget can never run (the API answers
// 422 naming both figures); one that fits the budget but not what others
// hold now waits (jobs) or is asked to come back (503 with Retry-After).
// Estimates are upper bounds of the large allocations, not of every byte.
// Thread-safety: every method may be called from any thread.
#ifndef LDPGRAPH_DAEMON_JOBS_MEMORY_BUDGET_H_
#define LDPGRAPH_DAEMON_JOBS_MEMORY_BUDGET_H_

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

#include "ldpgraph/status.h"
#include "net/http_types.h"
#include "net/metrics.h"

namespace ldpgraph {

class MemoryBudget {
 public:
  // Publishes its size and what is leased into `metrics` when given.
  explicit MemoryBudget(std::uint64_t bytes, Metrics* metrics = nullptr);
  MemoryBudget(const MemoryBudget&) = delete;
  MemoryBudget& operator=(const MemoryBudget&) = delete;

  // Bytes held until destroyed (or moved from).
  class Lease {
   public:
    Lease() = default;
    Lease(Lease&& other) noexcept : budget_(other.budget_), bytes_(other.bytes_) { other.budget_ = nullptr; }
    Lease& operator=(Lease&& other) noexcept;
    ~Lease();

   private:
    friend class MemoryBudget;
    Lease(MemoryBudget* budget, std::uint64_t bytes) : budget_(budget), bytes_(bytes) {}
    MemoryBudget* budget_ = nullptr;
    std::uint64_t bytes_ = 0;
  };

  std::uint64_t bytes() const { return bytes_; }  // the whole budget

  // kResourceExhausted when `bytes` exceeds the budget (never fits: the
  // message names `what`, the estimate and the budget).
  Status Fits(std::uint64_t bytes, const std::string& what) const;
  // A lease now. Errors: Fits()'s; kUnavailable while others hold too much.
  Result<Lease> TryReserve(std::uint64_t bytes, const std::string& what);
  // A lease once the others have released enough. Errors: Fits()'s.
  Result<Lease> Reserve(std::uint64_t bytes, const std::string& what);

 private:
  void Release(std::uint64_t bytes);

  const std::uint64_t bytes_;
  Metrics* const metrics_;
  std::mutex mu_;
  std::condition_variable released_;
  std::uint64_t held_ = 0;
};

// For a request: `bytes` leased from `budget` into *lease (nothing when
// `budget` is null), or the answer: 422 over_memory_budget when the
// estimate can never fit, 503 busy with Retry-After while others hold too
// much.
std::optional<HttpResponse> LeaseForRequest(MemoryBudget* budget, const std::string& what, std::uint64_t bytes,
                                            MemoryBudget::Lease* lease);

// "1.5 GB", "640 MB": a figure for messages.
std::string ByteSize(std::uint64_t bytes);

// The budget when the config sets none: half the machine's memory.
std::uint64_t DefaultMemoryBudget();

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_JOBS_MEMORY_BUDGET_H_
