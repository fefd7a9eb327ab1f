// SharedJobQueue: the queue of training jobs in a store several daemons
// share, and the training lead that decides which daemon runs them. One of
// the four interfaces a store backend implements (store.h); a store one
// daemon owns is not shared, and keeps these defaults.
#ifndef LDPGRAPH_DAEMON_STORE_SHARED_JOB_QUEUE_H_
#define LDPGRAPH_DAEMON_STORE_SHARED_JOB_QUEUE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ldpgraph/status.h"
#include "store/job_store.h"

namespace ldpgraph {

// A job as the leader of shared stores claims it: its status and the
// request it was queued with (JSON the daemons' API encodes).
struct ClaimedJob {
  std::uint64_t job_id = 0;
  std::string status_json;
  std::string request_json;
};

class SharedJobQueue {
 public:
  virtual ~SharedJobQueue() = default;

  // Several daemons sharing one store (PostgreSQL) queue training jobs in
  // it, and one daemon at a time, the leader, runs them: any daemon may
  // queue, list or cancel a job, and the jobs outlive the daemon that
  // queued them. A store one daemon owns (SQLite) is not shared: its daemon
  // runs what it queues itself, and the methods below are not called.
  virtual bool Shared() const { return false; }
  // Holds the training lead, or takes it when no daemon holds it: the
  // lead's epoch while this daemon leads, nullopt while another does. The
  // epoch is a fencing token: each daemon that takes the lead raises it,
  // and a leader's writes below name the epoch they were made under, so
  // the store refuses those of a leader deposed since. Each call confirms
  // the lead with the store (a round trip on the connection the lead lives
  // with): a lead lost with its connection (a database restart, a crash)
  // is noticed at the next call, which may take it anew under a new epoch.
  // Errors: kUnavailable.
  virtual Result<std::optional<std::uint64_t>> HoldLead() { return std::optional<std::uint64_t>(1); }
  // Queues a job with the request the leader will run. Errors: kUnavailable.
  virtual Result<std::uint64_t> AddSharedJob(const std::string& status_json, const std::string& request_json) {
    (void)status_json, (void)request_json;
    return Status::Internal("not a shared store");
  }
  // The oldest queued job nobody claimed or cancelled, claimed now for the
  // leader of `epoch`; nullopt when there is none. Errors:
  // kFailedPrecondition when the lead has passed on, kUnavailable.
  virtual Result<std::optional<ClaimedJob>> ClaimNextJob(std::uint64_t epoch) {
    (void)epoch;
    return Status::Internal("not a shared store");
  }
  // Jobs claimed by a leader that have not ended: after a new leader takes
  // over, those its predecessor left running. Errors: kUnavailable.
  virtual Result<std::vector<StoredJob>> ClaimedJobs() { return Status::Internal("not a shared store"); }
  // A leader's write of a job's status under the lead of `epoch`; `final`
  // ends the job (its last write). Errors: kFailedPrecondition when the
  // lead has passed to a later epoch (the write is refused: the caller is
  // deposed) or the job has already ended, with which in the message;
  // kUnavailable.
  virtual Status UpdateLedJob(std::uint64_t job_id, const std::string& status_json, std::uint64_t epoch,
                              bool final) {
    (void)job_id, (void)status_json, (void)epoch, (void)final;
    return Status::Internal("not a shared store");
  }
  // Asks the leader to cancel job `id`. A job nobody claimed is never
  // claimed now: it ends at once with `cancelled_json` as its status, and
  // the answer is true; false when a leader runs it (its next progress
  // write reads the request). Errors: kFailedPrecondition for an unknown
  // id or a job that has ended, kUnavailable.
  virtual Result<bool> RequestJobCancel(std::uint64_t id, const std::string& cancelled_json) {
    (void)id, (void)cancelled_json;
    return Status::Internal("not a shared store");
  }
  virtual Result<bool> JobCancelRequested(std::uint64_t id) {
    (void)id;
    return Status::Internal("not a shared store");
  }
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_STORE_SHARED_JOB_QUEUE_H_
