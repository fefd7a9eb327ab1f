// TrainingJobs: training in the background, one job at a time (training
// uses every core), whatever its kind (job_kind.h: graph_job.cc trains GIN-0
// on graphs assembled from their reports, node_job.cc GraphSAGE or GCN with
// LPGNN on one graph's users, gap_job.cc GAP or ProGAP on a held graph). The
// runner queues jobs, leases their memory, keeps their status and publishes
// what a kind trained as a model version. The others wait in order. A job
// can be cancelled while it waits or between two epochs.
// Jobs are durable: each is a row of the store from the moment it is
// queued, written again at every change of state. After a crash or a
// SIGKILL, a job that was queued or running is reported failed with
// "interrupted" (training is not resumed: its noise would be drawn again),
// and ids are never used twice.
// On a store several daemons share (PostgreSQL), the queue is the store's:
// any daemon queues (with the request encoded, requests/job_request_codec.h), lists and
// cancels jobs, and the daemon holding the store's training lead runs them
// one at a time, writing its progress back every second (shared_queue.cc).
// The lead is a lease: its holder confirms it every kLeaseCheck and stops
// its job when it cannot, and every state change it writes carries the
// lease's epoch, which the store refuses once another daemon has led since.
// A new leader waits kLeaseGrace (time for a deposed one to stop), then
// reports the job its predecessor left running failed, interrupted, and
// runs the queued ones: so at most one job runs at a time, and each job
// ends once, through a dead leader, a database restart or a crash.
// Thread-safety: every method may be called from any thread.
#ifndef LDPGRAPH_DAEMON_JOBS_TRAINING_JOBS_H_
#define LDPGRAPH_DAEMON_JOBS_TRAINING_JOBS_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "jobs/job_kind.h"
#include "jobs/job_status.h"
#include "jobs/memory_budget.h"
#include "net/logger.h"
#include "net/metrics.h"
#include "requests/job_request.h"
#include "store/held_graph_store.h"
#include "store/model_registry.h"
#include "store/store.h"

namespace ldpgraph {

class TrainingJobs {
 public:
  // `metrics` counts assemblies and job outcomes. Reads the jobs the store
  // holds; those a stop interrupted are marked failed (and logged).
  // `memory` (optional): GAP jobs lease their estimate from it while they train.
  // `held_graphs` (optional): where a GAP job queued in a shared store by
  // another daemon finds its graph.
  TrainingJobs(Store* store, ModelRegistry* models, Metrics* metrics, Logger* logger,
               MemoryBudget* memory = nullptr, const HeldGraphStore* held_graphs = nullptr);
  ~TrainingJobs();  // cancels what runs, drops what waits, joins
  TrainingJobs(const TrainingJobs&) = delete;
  TrainingJobs& operator=(const TrainingJobs&) = delete;

  // Queues a job (logged as job_queued). Errors: kInvalidArgument for fewer
  // than 2 graphs or 2 classes (graph task), a graph without features or
  // labels (node task); kUnavailable when the store cannot record it.
  Result<std::uint64_t> Start(GraphJobRequest request);
  // nullopt for an unknown job. Errors: the shared store's (kUnavailable).
  Result<std::optional<JobStatus>> Get(std::uint64_t id) const;
  Result<std::vector<JobStatus>> All() const;
  // false when the job is unknown or already over.
  bool Cancel(std::uint64_t id);

 private:
  struct Job {
    JobStatus status;
    GraphJobRequest request;
    std::atomic<bool> cancel{false};
    std::chrono::steady_clock::time_point synced{};  // shared store: its last progress write
    std::uint64_t epoch = 0;         // shared store: the lead it runs under, which fences its writes
    std::atomic<bool> deposed{false};  // shared store: that lead was lost; nothing more is written
  };
  void WorkerLoop();
  // Shared store: takes the lead when it is free, and while leading runs
  // the store's queue (shared_queue.cc).
  void SharedWorkerLoop();
  // Shared store: confirms the lead every kLeaseCheck while a job runs, and
  // stops the job when the lead is lost.
  void LeaseWatchLoop();
  // A new leader of `epoch`: jobs its predecessors claimed and left
  // unfinished fail, interrupted. False when it could not (deposed, or the
  // store did not answer): it is tried again.
  bool TakeOver(std::uint64_t epoch);
  void RunClaimed(const ClaimedJob& claimed, std::uint64_t epoch);
  Result<std::optional<JobStatus>> StoredStatus(std::uint64_t id) const;
  // Shared store, while training: progress to the store and a cancel from it, once a second.
  void Sync(Job* job);
  class RunningJob;
  // Runs the job by its kind (job_kind.h), then publishes its model or ends it.
  void Run(Job* job);
  // The job's memory estimate from the budget, once the others leave room.
  // Errors: Reserve's (an estimate over the whole budget).
  Status LeaseMemory(Job* job, MemoryBudget::Lease* lease);
  // Ends the job: false when a shared store refused or missed the end
  // (the job is then abandoned: logged, and the next leader reports it
  // interrupted).
  bool Finish(Job* job, std::chrono::steady_clock::time_point start, JobState state, const std::string& error);
  // Stores `model` as a new version and marks the job succeeded with its
  // accuracies (failed when the version cannot be stored). A deposed
  // leader stores nothing, and withdraws a version whose job it could not end.
  void Publish(Job* job, std::chrono::steady_clock::time_point start, const TrainedModel& trained);
  void Update(Job* job, const std::function<void(JobStatus&)>& change);
  // Writes the job's status to the store (after a change of state); on a
  // shared store under the job's lead, which a refusal marks deposed.
  Status Persist(Job* job);
  // Update, then Persist.
  void UpdateDurably(Job* job, const std::function<void(JobStatus&)>& change);
  void RecoverInterrupted();

  Store* store_;
  const bool shared_;
  const HeldGraphStore* held_graphs_;
  bool wake_ = false;  // a job was queued here: look at the store now
  ModelRegistry* models_;
  MemoryBudget* memory_;
  Metrics* metrics_;
  Logger* logger_;
  mutable std::mutex mu_;
  std::mutex persist_mu_;  // one status write at a time
  std::condition_variable cv_;
  std::map<std::uint64_t, std::unique_ptr<Job>> jobs_;
  std::deque<Job*> queue_;
  bool stopping_ = false;
  Job* running_ = nullptr;  // shared store: the job this daemon runs as leader
  std::thread worker_;
  std::thread lease_watch_;  // shared store only
};

// How often a leader confirms its lead while a job runs, and how long a
// new leader waits before it runs anything (a deposed leader notices within
// kLeaseCheck plus the lead connection's keepalive timeout, and stops its
// job at the next epoch).
constexpr std::chrono::milliseconds kLeaseCheck{250};
constexpr std::chrono::milliseconds kLeaseGrace{4000};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_JOBS_TRAINING_JOBS_H_
