// CommitQueue: the inserts waiting for a store's writer thread (group
// commit). Request threads push; the writer takes everything queued while
// its previous commit ran, as one batch. Under load the writer may wait a
// moment for company (PostgreSQL's commit_delay, done here): one commit
// costs about the same for 1 report as for 30.
// Thread-safety: Push and Close from any thread; TakeBatch from the writer only.
#ifndef LDPGRAPH_DAEMON_STORE_COMMIT_QUEUE_H_
#define LDPGRAPH_DAEMON_STORE_COMMIT_QUEUE_H_

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <vector>

#include "store/report_store.h"

namespace ldpgraph {

class CommitQueue {
 public:
  struct Pending {
    ReportRecord record;
    ReportStore::InsertDone done;
  };

  // `company`: after a batch of at least `busy` reports, the writer waits
  // up to `wait` for `company` queued reports (company 0: never waits).
  CommitQueue(std::size_t busy, std::size_t company, std::chrono::microseconds wait)
      : busy_(busy), company_(company), wait_(wait) {}

  // Queues the insert; answers it kUnavailable ("store is closed") after Close().
  void Push(ReportRecord record, ReportStore::InsertDone done);
  // Blocks until there is work, then takes up to `max` inserts; an empty
  // batch once closed with nothing left.
  std::vector<Pending> TakeBatch(std::size_t max);
  // Wakes the writer; what is queued is still taken.
  void Close();

  // The writer thread's whole life: until Close() and drained, each batch
  // (at most `max`) goes to `commit`, which makes it durable and returns
  // one outcome per insert; only then are the inserts answered, after
  // `on_commit` (optional) hears how many were new and how long it took.
  // A failed commit answers the whole batch kUnavailable.
  using Commit = std::function<Result<std::vector<InsertOutcome>>(const std::vector<Pending>&)>;
  void Serve(std::size_t max, const Commit& commit, const CommitObserver& on_commit);

 private:
  const std::size_t busy_, company_;
  const std::chrono::microseconds wait_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Pending> queue_;
  bool closing_ = false;
  std::size_t last_batch_ = 0;  // the writer's
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_STORE_COMMIT_QUEUE_H_
