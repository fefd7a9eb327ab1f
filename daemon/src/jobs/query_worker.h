// QueryWorker: admin queries that compute for long run here, one at a time,
// instead of on an I/O thread. A GW nearest-neighbour query compares one
// graph with every stored one; on an I/O thread it would hold up ingest and
// every other request that thread serves. Queries wait in order; when
// `max_waiting` already wait, the next is refused at once (503 with
// Retry-After) rather than piling up behind them.
// Thread-safety: Submit may be called from any thread.
#ifndef LDPGRAPH_DAEMON_JOBS_QUERY_WORKER_H_
#define LDPGRAPH_DAEMON_JOBS_QUERY_WORKER_H_

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>

#include "net/http_types.h"
#include "net/metrics.h"

namespace ldpgraph {

class QueryWorker {
 public:
  // Counts its queries into `metrics` when given (admin_queries_*).
  explicit QueryWorker(std::size_t max_waiting = 16, Metrics* metrics = nullptr);
  // Lets the running query end, and answers the waiting ones 503 unanswered.
  ~QueryWorker();
  QueryWorker(const QueryWorker&) = delete;
  QueryWorker& operator=(const QueryWorker&) = delete;

  // Runs `query` on the worker and passes its answer to `respond`, which is
  // called exactly once, on the worker or (refused) on the caller's thread.
  void Submit(std::function<HttpResponse()> query, Respond respond);

 private:
  void Run();

  const std::size_t max_waiting_;
  Metrics* const metrics_;
  std::mutex mu_;
  std::condition_variable wake_;
  std::deque<std::pair<std::function<HttpResponse()>, Respond>> waiting_;
  bool stopping_ = false;
  std::thread thread_;  // last: starts once the rest exists
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_JOBS_QUERY_WORKER_H_
