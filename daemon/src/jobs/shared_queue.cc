// TrainingJobs on a store several daemons share: the training lead, the
// lease that fences a leader's writes, and the store's job queue.
//
// Why a lease and not the advisory lock alone (issue 66): the lock lives
// with its session, and a database restart ends the session without a
// word to the daemon holding it, which went on running jobs while a new
// leader ran others. Now the lead is confirmed every kLeaseCheck (a round
// trip on the lock's own connection); a leader that cannot confirm it stops
// its job; a new leader waits kLeaseGrace before it runs anything; and each
// write names the lead's epoch, so whatever a deposed leader still sends
// is refused by the store.
#include <chrono>
#include <pthread.h>

#include "jobs/training_jobs.h"
#include "requests/job_request_codec.h"

namespace ldpgraph {

void TrainingJobs::SharedWorkerLoop() {
  std::optional<std::uint64_t> led;  // the epoch this daemon leads under
  std::chrono::steady_clock::time_point since;
  bool taken_over = false;
  for (;;) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (stopping_) return;
    }
    Result<std::optional<std::uint64_t>> lead = store_->HoldLead();
    const std::optional<std::uint64_t> epoch = lead.ok() ? *lead : std::nullopt;
    if (epoch != led) {
      if (led) {
        logger_->Warning("training_lead_lost", {{"epoch", std::to_string(*led)},
                                                {"error", lead.ok() ? "another daemon leads" : lead.status().message()}});
      }
      led = epoch;
      metrics_->training_leader.store(led ? 1 : 0);
      metrics_->training_lead_changes.fetch_add(1);
      taken_over = false;
      since = std::chrono::steady_clock::now();
      if (led) logger_->Info("training_lead_taken", {{"epoch", std::to_string(*led)}});
    }
    // The first lead ever has no predecessor to wait for.
    const bool waited = led && (*led == 1 || std::chrono::steady_clock::now() - since >= kLeaseGrace);
    if (waited && !taken_over) taken_over = TakeOver(*led);
    if (waited && taken_over) {
      Result<std::optional<ClaimedJob>> claimed = store_->ClaimNextJob(*led);
      if (claimed.ok() && claimed->has_value()) {
        RunClaimed(**claimed, *led);
        continue;
      }
      if (!claimed.ok()) logger_->Warning("jobs_not_read", {{"error", claimed.status().message()}});
    }
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait_for(lock, kLeaseCheck, [&] { return stopping_ || wake_; });
    wake_ = false;
  }
}

void TrainingJobs::LeaseWatchLoop() {
  pthread_setname_np(pthread_self(), "ldpgraphd-lease");
  for (;;) {
    std::uint64_t id = 0, epoch = 0;
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait_for(lock, kLeaseCheck, [&] { return stopping_; });
      if (stopping_) return;
      if (running_ == nullptr || running_->deposed) continue;
      id = running_->status.id;
      epoch = running_->epoch;
    }
    Result<std::optional<std::uint64_t>> lead = store_->HoldLead();
    if (lead.ok() && *lead == epoch) continue;
    std::lock_guard<std::mutex> lock(mu_);
    if (running_ == nullptr || running_->status.id != id || running_->epoch != epoch) continue;
    running_->deposed = true;
    running_->cancel = true;  // training stops at its next epoch
    logger_->Warning("training_lead_lost",
                     {{"epoch", std::to_string(epoch)},
                      {"job_id", std::to_string(id)},
                      {"error", lead.ok() ? "another daemon leads" : lead.status().message()}});
  }
}

bool TrainingJobs::TakeOver(std::uint64_t epoch) {
  Result<std::vector<StoredJob>> claimed = store_->ClaimedJobs();
  if (!claimed.ok()) {
    logger_->Error("jobs_not_read", {{"error", claimed.status().message()}});
    return false;
  }
  for (const StoredJob& row : *claimed) {
    Result<JobStatus> status = JobStatusFromJson(row.status_json);
    JobStatus s = status.ok() ? *status : JobStatus{};
    s.id = row.job_id;
    const std::string was = status.ok() ? JobStateName(s.state) : "unreadable";
    s.state = JobState::kFailed;
    s.error = "interrupted: the daemon running it stopped while the job was " + was + " (at epoch " +
              std::to_string(s.epoch) + "); no model was stored: submit it again";
    Status written = store_->UpdateLedJob(row.job_id, JobStatusJson(s), epoch, /*final=*/true);
    if (!written.ok()) {
      // Deposed already, or the store is away (the next call tries again
      // if this daemon still leads), or ended meanwhile (not listed again).
      logger_->Warning("jobs_not_taken_over", {{"job_id", std::to_string(row.job_id)}, {"error", written.message()}});
      return false;
    }
    logger_->Warning("job_interrupted", {{"job_id", std::to_string(row.job_id)}, {"was", was}, {"persisted", "true"}});
    metrics_->jobs_failed.fetch_add(1);
  }
  return true;
}

void TrainingJobs::RunClaimed(const ClaimedJob& claimed, std::uint64_t epoch) {
  auto owned = std::make_unique<Job>();
  Job* job = owned.get();
  Result<JobStatus> status = JobStatusFromJson(claimed.status_json);
  if (status.ok()) job->status = *status;
  job->status.id = claimed.job_id;
  job->epoch = epoch;
  {
    std::lock_guard<std::mutex> lock(mu_);
    jobs_[claimed.job_id] = std::move(owned);
    running_ = job;
  }
  const auto start = std::chrono::steady_clock::now();
  Result<GraphJobRequest> request =
      DecodeJobRequest(claimed.request_json, held_graphs_);
  if (!request.ok()) {
    (void)Finish(job, start, JobState::kFailed, request.status().ToString());
  } else {
    job->request = std::move(request).value();
    Result<bool> cancelled = store_->JobCancelRequested(claimed.job_id);
    if (cancelled.ok() && *cancelled) {
      (void)Finish(job, start, JobState::kCancelled, "");
    } else {
      UpdateDurably(job, [](JobStatus& s) { s.state = JobState::kAssembling; });
      job->synced = std::chrono::steady_clock::now();
      metrics_->jobs_running.fetch_add(1);
      Run(job);
      metrics_->jobs_running.fetch_sub(1);
    }
  }
  // What it ended as is the store's now (or the next leader's to say).
  std::lock_guard<std::mutex> lock(mu_);
  running_ = nullptr;
  jobs_.erase(claimed.job_id);
}

void TrainingJobs::Sync(Job* job) {
  const auto now = std::chrono::steady_clock::now();
  if (now - job->synced < std::chrono::seconds(1)) return;
  job->synced = now;
  if (!Persist(job).ok()) return;  // a refused write deposed the job
  Result<bool> cancel = store_->JobCancelRequested(job->status.id);
  if (cancel.ok() && *cancel) job->cancel = true;
}

}  // namespace ldpgraph
