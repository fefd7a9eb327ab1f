// A job's state as the admin API shows it and the store keeps it: one JSON
// resource ({"job_id", "state", ...}), whichever kind of job it is.
#ifndef LDPGRAPH_DAEMON_JOBS_JOB_STATUS_H_
#define LDPGRAPH_DAEMON_JOBS_JOB_STATUS_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "ldpgraph/status.h"

namespace ldpgraph {

enum class JobState { kQueued, kAssembling, kTraining, kSucceeded, kFailed, kCancelled };
const char* JobStateName(JobState state);

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

// Whether a job in `state` has ended (succeeded, failed or cancelled).
bool JobOver(JobState state);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_JOBS_JOB_STATUS_H_
