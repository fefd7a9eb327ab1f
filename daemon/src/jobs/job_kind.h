// One kind of training job (a graph's class with GIN, users' classes with
// LPGNN, a held graph with GAP): how a request of that kind is checked, and
// how it is run once the runner (training_jobs.h) has leased its memory. A
// kind knows nothing of queues, stores' leases or model versions: it sees
// its request and a JobSession, and ends with a model or without one. The
// runner publishes the model and ends the job.
#ifndef LDPGRAPH_DAEMON_JOBS_JOB_KIND_H_
#define LDPGRAPH_DAEMON_JOBS_JOB_KIND_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "jobs/job_status.h"
#include "net/logger.h"
#include "net/metrics.h"
#include "requests/job_request.h"
#include "store/model_registry.h"
#include "store/report_store.h"

namespace ldpgraph {

// What a running job sees of the runner.
class JobSession {
 public:
  virtual std::uint64_t job_id() const = 0;
  // Raised by a cancel: a kind checks it between steps and passes it to
  // what trains.
  virtual const std::atomic<bool>& cancelled() const = 0;
  // Progress a poll sees (epochs, graphs assembled); not written to the store.
  virtual void Update(const std::function<void(JobStatus&)>& change) = 0;
  // A change of state (say to kTraining), written to the store.
  virtual void UpdateDurably(const std::function<void(JobStatus&)>& change) = 0;
  virtual ReportStore& store() = 0;
  virtual Metrics& metrics() = 0;
  virtual Logger& logger() = 0;

 protected:
  ~JobSession() = default;
};

// A model a job made, with what its version records.
struct TrainedModel {
  AnyModel model;
  std::string about_json;  // the version's description (model registry)
  double val_accuracy = 0, test_accuracy = 0;
  std::optional<double> test_auc;  // graph jobs (GIN) only
};

// How a kind's run ended: a model, or cancelled, or failed with a message.
struct JobOutcome {
  JobState state = JobState::kFailed;  // kSucceeded exactly when `trained` holds a model
  std::string error;
  std::optional<TrainedModel> trained;

  static JobOutcome Trained(TrainedModel model);
  static JobOutcome Cancelled();
  static JobOutcome Failed(std::string error);
};

struct JobKind {
  const char* name;  // the job resource's "task": "graph", "node", "gap"
  // Checks a request of this kind and sets what follows from it
  // (max_epochs, labels). Errors: kInvalidArgument.
  Status (*prepare)(GraphJobRequest* request);
  // Logs job_started with what the kind names of its request; the runner
  // calls it before the job waits for its memory.
  void (*announce)(const GraphJobRequest& request, std::uint64_t job_id, Logger& logger);
  JobOutcome (*run)(const GraphJobRequest& request, JobSession& session);
};

// What the kinds that assemble graphs from reports (graph, node) both
// check: one symmetrisation rule per graph, epochs >= 1, hidden >= 0,
// layers >= 2. Errors: kInvalidArgument.
Status CheckAssembledJob(const GraphJobRequest& request);

// The kinds, by task: graph_job.cc, node_job.cc, gap_job.cc.
extern const JobKind kGraphJob;
extern const JobKind kNodeJob;
extern const JobKind kGapJob;
const JobKind& KindOf(JobTask task);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_JOBS_JOB_KIND_H_
