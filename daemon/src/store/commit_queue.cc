#include "store/commit_queue.h"

#include <utility>

namespace ldpgraph {

void CommitQueue::Push(ReportRecord record, ReportStore::InsertDone done) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!closing_) {
      queue_.push_back({std::move(record), std::move(done)});
      if (queue_.size() == 1 || queue_.size() == company_) cv_.notify_one();
      return;
    }
  }
  done(Status::Unavailable("store is closed"));
}

std::vector<CommitQueue::Pending> CommitQueue::TakeBatch(std::size_t max) {
  std::vector<Pending> batch;
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [this] { return !queue_.empty() || closing_; });
  if (queue_.empty()) return batch;  // closing, nothing left
  if (company_ > 0 && last_batch_ >= busy_ && queue_.size() < company_ && !closing_) {
    cv_.wait_for(lock, wait_, [this] { return queue_.size() >= company_ || closing_; });
  }
  while (!queue_.empty() && batch.size() < max) {
    batch.push_back(std::move(queue_.front()));
    queue_.pop_front();
  }
  last_batch_ = batch.size();
  return batch;
}

void CommitQueue::Serve(std::size_t max, const Commit& commit, const CommitObserver& on_commit) {
  for (;;) {
    std::vector<Pending> batch = TakeBatch(max);
    if (batch.empty()) return;  // closed, nothing left
    const auto start = std::chrono::steady_clock::now();
    Result<std::vector<InsertOutcome>> outcomes = commit(batch);
    if (!outcomes.ok()) {
      for (Pending& p : batch) p.done(Status::Unavailable("store commit failed: " + outcomes.status().message()));
      continue;
    }
    std::size_t stored = 0;
    for (InsertOutcome o : *outcomes) stored += o == InsertOutcome::kStored;
    if (on_commit) on_commit(stored, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    for (std::size_t i = 0; i < batch.size(); ++i) batch[i].done((*outcomes)[i]);
  }
}

void CommitQueue::Close() {
  std::lock_guard<std::mutex> lock(mu_);
  closing_ = true;
  cv_.notify_one();
}

}  // namespace ldpgraph
