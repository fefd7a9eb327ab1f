// TrainingJobs: training in the background. A graph-classification job
// assembles the chosen graphs from their reports and trains GIN-0 through the
// one pipeline the CLI and the experiments use (TrainGinOnDataset); a
// node-classification job assembles one graph with its users' rectified
// features and randomized labels and trains GraphSAGE or GCN with LPGNN
// (TrainLpgnn, as `ldpgraph experiment lpgnn` does), on the reported edges
// or on the graph the link denoiser makes of them (TrainOnLinkReports, as
// `ldpgraph experiment linkldp` does); a GAP job trains GAP
// on a held graph (gap/held_graph.h) under edge- or node-level DP
// (TrainGap, as `ldpgraph train --model gap` does). On success a job adds a
// model version. One job runs at a time (training uses every
// core); the others wait in order. A job can be cancelled while it waits or
// between two epochs.
// Jobs are durable: each is a row of the store from the moment it is
// queued, written again at every change of state. After a crash or a
// SIGKILL, a job that was queued or running is reported failed with
// "interrupted" (training is not resumed: its noise would be drawn again),
// and ids are never used twice.
// On a store several daemons share (PostgreSQL), the queue is the store's:
// any daemon queues (with the request encoded, JobRequestCodec), lists and
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

#include "assembly/dataset_assembly.h"
#include "gap/gap_pipeline.h"
#include "gap/progap_pipeline.h"
#include "gap/held_graph.h"
#include "graph/symmetrise.h"
#include "jobs/memory_budget.h"
#include "ldpgraph/graph_config.h"
#include "linkldp/denoised_training.h"
#include "net/logger.h"
#include "net/metrics.h"
#include "store/model_registry.h"
#include "store/report_store.h"
#include "train/lpgnn_pipeline.h"

namespace ldpgraph {

enum class JobTask { kGraph, kNode, kGap };

struct GraphJobRequest {
  JobTask task = JobTask::kGraph;
  // kGraph: what to train on, each with a label (one per graph in `labels`).
  // kNode: exactly one graph; its users' own noisy labels are used.
  std::vector<GraphConfig> graphs;
  std::vector<std::int64_t> labels;
  NodeGnnKind node_model = NodeGnnKind::kSage;    // kNode
  LabelMethod label_method = LabelMethod::kDrop;  // kNode
  // kNode: the noisy edges as reported (nullopt), or the graph the link
  // denoiser makes of them (linkldp/denoised_training.h).
  std::optional<LinkDenoising> denoise;
  // kNode: the round of a graph collected in rounds whose graph it trains
  // on (each user's newest report up to it); kNewestRound otherwise.
  std::uint32_t round = kNewestRound;
  // One per graph: each graph's own policy, or one rule the job imposes.
  std::vector<Symmetrisation> rules;
  std::string rule_name = "per-graph";  // what the model remembers: a rule, or "per-graph"
  int max_epochs = 500;
  std::uint64_t seed = 0;
  int hidden = 0;  // 0: the model's own default (GIN-0: 64, LPGNN: 16)
  int layers = 5;
  // kGraph: GIN's node input (SetGinNodeInput's names); "constant" is the paper's.
  std::string node_input = "constant";
  // kGraph: GraphTrainOptions::bf16_products ("products": "bf16").
  bool bf16_products = false;
  // kGap: the held graph and how to train on it (its noise is the OS's).
  std::shared_ptr<const HeldGraph> held_graph;
  GapOptions gap;
  bool progap = false;             // kGap: ProGAP (gap/progap_pipeline.h) rather than GAP
  std::uint64_t memory_bytes = 0;  // the estimate it leases while it runs (GapMemoryEstimate, TrainingMemoryEstimate)
  std::string gap_request_json;    // kGap: the request's body, which a shared store's leader reads again
};

// How a request travels through a shared store: the API that resolved it
// encodes it, the leader decodes it (api/job_request_codec.h).
struct JobRequestCodec {
  std::function<std::string(const GraphJobRequest&)> encode;
  std::function<Result<GraphJobRequest>(const std::string&)> decode;
};

enum class JobState { kQueued, kAssembling, kTraining, kSucceeded, kFailed, kCancelled };
const char* JobStateName(JobState state);

// Adds assembled graphs to the /metrics totals.
void CountAssembly(Metrics& metrics, const DatasetAssemblyStats& stats);

struct JobStatus {
  std::uint64_t id = 0;
  std::string task = "graph";  // "graph", "node", "gap"
  JobState state = JobState::kQueued;
  std::size_t graphs = 0;
  std::size_t graphs_assembled = 0;
  int epoch = 0;
  int max_epochs = 0;
  double val_accuracy = 0;  // of the last epoch
  double test_accuracy = 0;
  std::optional<double> test_auc;  // graph jobs (GIN) only
  std::uint64_t model_version = 0;  // 0 until succeeded
  std::string error;
  double seconds = 0;
};

// The job resource of the admin API ({"job_id", "state", ...}), which is
// also what the store keeps.
std::string JobStatusJson(const JobStatus& status);
// Errors: kDataLoss for text that is not such a resource.
Result<JobStatus> JobStatusFromJson(const std::string& text);

class TrainingJobs {
 public:
  // `metrics` counts assemblies and job outcomes. Reads the jobs the store
  // holds; those a stop interrupted are marked failed (and logged).
  // `memory` (optional): GAP jobs lease their estimate from it while they train.
  // `codec`: how requests travel through a shared store (unused otherwise).
  TrainingJobs(ReportStore* store, ModelRegistry* models, Metrics* metrics, Logger* logger,
               MemoryBudget* memory = nullptr, JobRequestCodec codec = {});
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
  void Run(Job* job);
  // The job's memory estimate from the budget, once the others leave room.
  // Errors: Reserve's (an estimate over the whole budget).
  Status LeaseMemory(Job* job, MemoryBudget::Lease* lease);
  void RunNodeJob(Job* job);
  void RunGapJob(Job* job);  // gap_job.cc
  // Ends the job: false when a shared store refused or missed the end
  // (the job is then abandoned: logged, and the next leader reports it
  // interrupted).
  bool Finish(Job* job, std::chrono::steady_clock::time_point start, JobState state, const std::string& error);
  // Stores `model` as a new version and marks the job succeeded with its
  // accuracies (failed when the version cannot be stored). A deposed
  // leader stores nothing, and withdraws a version whose job it could not end.
  void Publish(Job* job, std::chrono::steady_clock::time_point start, const AnyModel& model,
               const std::string& about_json, double val_accuracy, double test_accuracy,
               std::optional<double> test_auc = std::nullopt);
  void Update(Job* job, const std::function<void(JobStatus&)>& change);
  // Writes the job's status to the store (after a change of state); on a
  // shared store under the job's lead, which a refusal marks deposed.
  Status Persist(Job* job);
  // Update, then Persist.
  void UpdateDurably(Job* job, const std::function<void(JobStatus&)>& change);
  void RecoverInterrupted();

  ReportStore* store_;
  const bool shared_;
  JobRequestCodec codec_;
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
