#include "jobs/training_jobs.h"

#include <chrono>
#include <thread>

#include <nlohmann/json.hpp>

#include "net/storage_failure.h"
#include "requests/job_request_codec.h"
#include "util/unix_clock.h"

namespace ldpgraph {

TrainingJobs::TrainingJobs(Store* store, ModelRegistry* models, Metrics* metrics, Logger* logger,
                           MemoryBudget* memory, const HeldGraphStore* held_graphs)
    : store_(store),
      shared_(store->Shared()),
      held_graphs_(held_graphs),
      models_(models),
      memory_(memory),
      metrics_(metrics),
      logger_(logger) {
  if (shared_) {
    worker_ = std::thread([this] { SharedWorkerLoop(); });
    lease_watch_ = std::thread([this] { LeaseWatchLoop(); });
    return;
  }
  RecoverInterrupted();
  metrics_->training_leader.store(1);  // its own store: nobody else runs its jobs
  worker_ = std::thread([this] { WorkerLoop(); });
}

Result<std::optional<JobStatus>> TrainingJobs::StoredStatus(std::uint64_t id) const {
  Result<std::optional<StoredJob>> stored = store_->GetJob(id);
  if (!stored.ok()) return stored.status();
  if (!*stored) return std::optional<JobStatus>();
  Result<JobStatus> status = JobStatusFromJson((*stored)->status_json);
  JobStatus s = status.ok() ? *status : JobStatus{};
  s.id = id;
  return std::optional<JobStatus>(s);
}

void TrainingJobs::RecoverInterrupted() {
  Result<std::vector<StoredJob>> stored = store_->ListJobs();
  if (!stored.ok()) {
    logger_->Error("jobs_not_read", {{"error", stored.status().message()}});
    return;
  }
  for (const StoredJob& row : *stored) {
    Result<JobStatus> status = JobStatusFromJson(row.status_json);
    auto job = std::make_unique<Job>();
    if (status.ok()) {
      job->status = *status;
    } else {
      job->status.state = JobState::kFailed;
      job->status.error = status.status().message();
    }
    job->status.id = row.job_id;
    if (!JobOver(job->status.state)) {
      const std::string was = JobStateName(job->status.state);
      job->status.state = JobState::kFailed;
      job->status.error = "interrupted: the daemon stopped while the job was " + was +
                          (was == "queued" ? "" : " (at epoch " + std::to_string(job->status.epoch) + ")") +
                          "; no model was stored: submit it again";
      Status written = store_->UpdateJob(row.job_id, JobStatusJson(job->status));
      logger_->Warning("job_interrupted", {{"job_id", std::to_string(row.job_id)},
                                           {"was", was},
                                           {"persisted", written.ok() ? "true" : written.message()}});
      metrics_->jobs_failed.fetch_add(1);
    }
    jobs_[row.job_id] = std::move(job);
  }
}

TrainingJobs::~TrainingJobs() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
    for (auto& [id, job] : jobs_) job->cancel = true;
    cv_.notify_all();
  }
  worker_.join();
  if (lease_watch_.joinable()) lease_watch_.join();
}

Result<std::uint64_t> TrainingJobs::Start(GraphJobRequest request) {
  const JobKind& kind = KindOf(request.task);
  LDPGRAPH_RETURN_IF_ERROR(kind.prepare(&request));
  auto job = std::make_unique<Job>();
  job->status.task = kind.name;
  job->status.graphs = request.task == JobTask::kGap ? 1 : request.graphs.size();
  job->status.max_epochs = request.max_epochs;
  if (shared_) {  // into the store's queue: the leader runs it, whichever daemon that is
    Result<std::uint64_t> id = store_->AddSharedJob(JobStatusJson(job->status), EncodeJobRequest(request));
    if (!id.ok()) return Status::Unavailable("the store cannot record the job: " + id.status().message());
    logger_->Info("job_queued", {{"job_id", std::to_string(*id)}, {"task", job->status.task}});
    std::lock_guard<std::mutex> lock(mu_);
    wake_ = true;
    cv_.notify_all();
    return *id;
  }
  // In the store before anyone can see it: an id is never handed out twice,
  // and a job acknowledged with 202 survives a crash (as failed, interrupted).
  Result<std::uint64_t> id = store_->AddJob(JobStatusJson(job->status));
  if (!id.ok()) return Status::Unavailable("the store cannot record the job: " + id.status().message());
  job->status.id = *id;
  job->request = std::move(request);
  logger_->Info("job_queued", {{"job_id", std::to_string(*id)}, {"task", job->status.task}});
  std::lock_guard<std::mutex> lock(mu_);
  queue_.push_back(job.get());
  jobs_[*id] = std::move(job);
  cv_.notify_all();
  return *id;
}

Result<std::optional<JobStatus>> TrainingJobs::Get(std::uint64_t id) const {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = jobs_.find(id);
    if (it != jobs_.end()) return std::optional<JobStatus>(it->second->status);  // run here: the freshest
  }
  if (!shared_) return std::optional<JobStatus>();
  return StoredStatus(id);
}

Result<std::vector<JobStatus>> TrainingJobs::All() const {
  std::vector<JobStatus> all;
  if (shared_) {
    Result<std::vector<StoredJob>> stored = store_->ListJobs();
    if (!stored.ok()) return stored.status();
    {
      std::lock_guard<std::mutex> lock(mu_);
      for (const StoredJob& row : *stored) {
        auto local = jobs_.find(row.job_id);
        if (local != jobs_.end()) {
          all.push_back(local->second->status);
          continue;
        }
        Result<JobStatus> status = JobStatusFromJson(row.status_json);
        JobStatus s = status.ok() ? *status : JobStatus{};
        s.id = row.job_id;
        all.push_back(s);
      }
    }
    return all;
  }
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& [id, job] : jobs_) all.push_back(job->status);
  return all;
}

bool TrainingJobs::Cancel(std::uint64_t id) {
  if (shared_) {
    JobStatus cancelled;
    bool here = false;  // running here: stopping it is the cancel, however soon it ends
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto it = jobs_.find(id);
      if (it != jobs_.end() && !JobOver(it->second->status.state)) {
        it->second->cancel = true;
        cancelled = it->second->status;
        here = true;
      }
    }
    if (!here) {
      Result<std::optional<JobStatus>> found = Get(id);
      if (!found.ok() || !*found || JobOver((*found)->state)) return false;
      cancelled = **found;
    }
    cancelled.state = JobState::kCancelled;
    // A job nobody claimed ends now, in the store; one a leader runs ends
    // when its run reads the request (a successor's too).
    Result<bool> ended = store_->RequestJobCancel(id, JobStatusJson(cancelled));
    if (!ended.ok()) return here;
    if (*ended) {
      metrics_->jobs_cancelled.fetch_add(1);
      logger_->Info("job_finished", {{"job_id", std::to_string(id)}, {"state", "cancelled"}, {"error", ""}});
    }
    return true;
  }
  Job* queued = nullptr;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = jobs_.find(id);
    if (it == jobs_.end()) return false;
    JobStatus& s = it->second->status;
    if (JobOver(s.state)) return false;
    it->second->cancel = true;
    if (s.state == JobState::kQueued) {  // the worker skips it
      s.state = JobState::kCancelled;
      queued = it->second.get();
    }
  }
  if (queued != nullptr) {
    (void)Persist(queued);
    metrics_->jobs_cancelled.fetch_add(1);
    logger_->Info("job_finished", {{"job_id", std::to_string(id)}, {"state", "cancelled"}, {"error", ""}});
  }
  return true;
}

void TrainingJobs::Update(Job* job, const std::function<void(JobStatus&)>& change) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    change(job->status);
  }
  if (shared_ && !JobOver(job->status.state)) Sync(job);
}

void TrainingJobs::UpdateDurably(Job* job, const std::function<void(JobStatus&)>& change) {
  Update(job, change);
  (void)Persist(job);
}

Status TrainingJobs::Persist(Job* job) {
  // The status as it is when the write starts: of two writes in a row, the
  // last stores the latest state, whichever change came first.
  std::lock_guard<std::mutex> persisting(persist_mu_);
  std::string text;
  bool over = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    text = JobStatusJson(job->status);
    over = JobOver(job->status.state);
  }
  if (shared_ && job->deposed) return Status::FailedPrecondition("this daemon no longer leads training");
  Status written = shared_ ? store_->UpdateLedJob(job->status.id, text, job->epoch, over)
                           : store_->UpdateJob(job->status.id, text);
  if (shared_ && written.code() == StatusCode::kFailedPrecondition) {
    job->deposed = true;  // another daemon leads, or ended the job: stop, write nothing more
    job->cancel = true;
  }
  if (!written.ok()) {
    logger_->Warning("job_not_persisted", {{"job_id", std::to_string(job->status.id)}, {"error", written.message()}});
  }
  return written;
}

bool TrainingJobs::Finish(Job* job, std::chrono::steady_clock::time_point start, JobState state,
                          const std::string& error) {
  Update(job, [&](JobStatus& s) {
    s.state = state;
    s.error = error;
    s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  });
  Status written = Persist(job);
  // A shared store's end is what counts: one that was refused or missed
  // leaves the job to the next leader, who reports it interrupted.
  for (int retry = 0; shared_ && written.code() == StatusCode::kUnavailable && retry < 5; ++retry) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    written = Persist(job);
  }
  if (shared_ && !written.ok()) {
    logger_->Warning("job_abandoned", {{"job_id", std::to_string(job->status.id)},
                                       {"state", JobStateName(state)},
                                       {"error", written.message()}});
    return false;
  }
  (state == JobState::kSucceeded ? metrics_->jobs_succeeded
   : state == JobState::kFailed  ? metrics_->jobs_failed
                                 : metrics_->jobs_cancelled)
      .fetch_add(1);
  logger_->Info("job_finished",
                {{"job_id", std::to_string(job->status.id)}, {"state", JobStateName(state)}, {"error", error}});
  return true;
}

void TrainingJobs::WorkerLoop() {
  for (;;) {
    Job* job = nullptr;
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      job = queue_.front();
      queue_.pop_front();
      if (job->status.state == JobState::kCancelled) continue;
      job->status.state = JobState::kAssembling;  // with the pop: a cancel now stops it between epochs
    }
    (void)Persist(job);
    metrics_->jobs_running.fetch_add(1);
    Run(job);
    metrics_->jobs_running.fetch_sub(1);
  }
}

Status TrainingJobs::LeaseMemory(Job* job, MemoryBudget::Lease* lease) {
  if (memory_ == nullptr || job->request.memory_bytes == 0) return Status::Ok();
  const char* what = job->request.task == JobTask::kGap ? "this GAP job" : "this training job";
  Result<MemoryBudget::Lease> leased = memory_->Reserve(job->request.memory_bytes, what);
  if (!leased.ok()) return leased.status();
  *lease = std::move(leased).value();
  return Status::Ok();
}

// What a running job's kind sees of this runner (JobSession).
class TrainingJobs::RunningJob final : public JobSession {
 public:
  RunningJob(TrainingJobs* jobs, Job* job) : jobs_(jobs), job_(job) {}
  std::uint64_t job_id() const override { return job_->status.id; }
  const std::atomic<bool>& cancelled() const override { return job_->cancel; }
  void Update(const std::function<void(JobStatus&)>& change) override { jobs_->Update(job_, change); }
  void UpdateDurably(const std::function<void(JobStatus&)>& change) override { jobs_->UpdateDurably(job_, change); }
  ReportStore& store() override { return *jobs_->store_; }
  Metrics& metrics() override { return *jobs_->metrics_; }
  Logger& logger() override { return *jobs_->logger_; }

 private:
  TrainingJobs* jobs_;
  Job* job_;
};

void TrainingJobs::Run(Job* job) {
  const auto start = std::chrono::steady_clock::now();
  const JobKind& kind = KindOf(job->request.task);
  kind.announce(job->request, job->status.id, *logger_);
  if (job->cancel) {
    (void)Finish(job, start, JobState::kCancelled, "");
    return;
  }
  // Its estimate, once the heavy requests in flight have left room for it.
  MemoryBudget::Lease lease;
  if (Status leased = LeaseMemory(job, &lease); !leased.ok()) {
    (void)Finish(job, start, JobState::kFailed, leased.message());
    return;
  }
  RunningJob session(this, job);
  JobOutcome outcome = kind.run(job->request, session);
  if (!outcome.trained) {
    (void)Finish(job, start, outcome.state, outcome.error);
    return;
  }
  Publish(job, start, *outcome.trained);
}

void TrainingJobs::Publish(Job* job, std::chrono::steady_clock::time_point start, const TrainedModel& trained) {
  const std::string& about_json = trained.about_json;
  // A leader stores a version only while its lead holds: one it lost since
  // it confirmed the lead last stores nothing (its job ends through the next leader).
  if (shared_) {
    Result<std::optional<std::uint64_t>> lead = store_->HoldLead();
    if (!lead.ok() || *lead != job->epoch) job->deposed = true;
    if (job->deposed) {
      (void)Finish(job, start, JobState::kFailed, "the training lead passed to another daemon before the model was stored");
      return;
    }
  }
  // When it was trained, for devices reading their result.
  nlohmann::json about = nlohmann::json::parse(about_json, nullptr, false);
  if (about.is_object()) {
    about["trained_at"] = UnixSeconds();
  }
  Result<std::uint64_t> version = models_->Add(trained.model, about.is_object() ? about.dump() : about_json);
  if (version.status().code() == StatusCode::kUnavailable) {
    (void)Finish(job, start, JobState::kFailed, ReportStorageFailure(logger_, "the model", version.status()));
    return;
  }
  if (!version.ok()) {
    (void)Finish(job, start, JobState::kFailed, version.status().message());
    return;
  }
  Update(job, [&](JobStatus& s) {
    s.val_accuracy = trained.val_accuracy;
    s.test_accuracy = trained.test_accuracy;
    s.test_auc = trained.test_auc;
    s.model_version = *version;
  });
  if (Finish(job, start, JobState::kSucceeded, "")) return;
  // Deposed between the check above and the end: the version is withdrawn,
  // so that no model outlives a job reported interrupted.
  Status withdrawn = models_->Withdraw(*version);
  logger_->Warning("model_withdrawn", {{"job_id", std::to_string(job->status.id)},
                                       {"version", std::to_string(*version)},
                                       {"withdrawn", withdrawn.ok() ? "true" : withdrawn.message()}});
}

}  // namespace ldpgraph
