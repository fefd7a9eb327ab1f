// JobStore: the training jobs a daemon ran or runs, each its last status as
// JSON, durable at every write. One of the four interfaces a store backend
// implements (store.h); a store several daemons share also queues them
// (shared_job_queue.h).
#ifndef LDPGRAPH_DAEMON_STORE_JOB_STORE_H_
#define LDPGRAPH_DAEMON_STORE_JOB_STORE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ldpgraph/status.h"

namespace ldpgraph {

// A training job as the store keeps it: its last status, as JSON (the
// daemon's job resource).
struct StoredJob {
  std::uint64_t job_id = 0;
  std::string status_json;
};

class JobStore {
 public:
  virtual ~JobStore() = default;

  // Training jobs. AddJob returns the new job's id: never one an earlier
  // job had. Each write is durable when it returns. Errors: kUnavailable on
  // I/O; UpdateJob: kFailedPrecondition for an unknown id.
  virtual Result<std::uint64_t> AddJob(const std::string& status_json) = 0;
  virtual Status UpdateJob(std::uint64_t job_id, const std::string& status_json) = 0;
  virtual Result<std::vector<StoredJob>> ListJobs() = 0;
  // One job; nullopt for an unknown id. Errors: kUnavailable.
  virtual Result<std::optional<StoredJob>> GetJob(std::uint64_t job_id) {
    Result<std::vector<StoredJob>> all = ListJobs();
    if (!all.ok()) return all.status();
    for (StoredJob& j : *all) {
      if (j.job_id == job_id) return std::optional<StoredJob>(std::move(j));
    }
    return std::optional<StoredJob>();
  }
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_STORE_JOB_STORE_H_
