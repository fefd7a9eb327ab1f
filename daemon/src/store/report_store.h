// ReportStore: where accepted reports and graph configurations live. The
// daemon talks only to this interface; SQLite (sqlite_report_store.h) is the
// embedded backend, and a PostgreSQL one can follow for several daemons
// sharing one store.
//
// The contract every backend keeps:
//   - one report per (graph, user, round): a second insert with the same
//     report id and bytes is a duplicate (acknowledged, stored once);
//     anything else for that triple is a conflict (it would spend the
//     user's budget twice);
//   - a graph collected once takes round 0 only; a graph collected in rounds
//     (docs/rounds.md) takes reports of its open round only, checked in the
//     transaction that stores them: once round r + 1 is open no report of
//     round r commits, so a closed round's graph never changes;
//   - Insert()'s callback runs only after the transaction holding the report
//     is durable, so an acknowledgement is never lost by a crash.
#ifndef LDPGRAPH_DAEMON_STORE_REPORT_STORE_H_
#define LDPGRAPH_DAEMON_STORE_REPORT_STORE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ldpgraph/report.h"
#include "ldpgraph/status.h"

namespace ldpgraph {

// ForEachReport's round for "each user's newest report".
constexpr std::uint32_t kNewestRound = 0xFFFFFFFFu;

struct ReportRecord {
  std::uint64_t graph_id = 0;
  std::uint32_t user_id = 0;
  std::uint32_t round = 0;  // 0 for a graph collected once
  ReportId report_id{};
  std::vector<std::uint8_t> bytes;  // the wire encoding, exactly as received
};

enum class InsertOutcome {
  kStored,     // new: now durable
  kDuplicate,  // the same report again: already durable, nothing written
  kConflict,   // a different report for the same (graph, user, round): refused
  kWrongRound, // not the graph's open round (0 for a graph collected once): refused
};
const char* InsertOutcomeName(InsertOutcome outcome);

struct StoredGraph {
  std::uint64_t graph_id = 0;
  std::string config_json;  // the public configuration, as created
  std::int64_t created_unix = 0;
  // A graph collected in rounds: how many closed rounds of reports the
  // store keeps for retraining besides the open one (round 1 opens with
  // the graph). 0: collected once.
  std::uint32_t history_rounds = 0;
};

// A graph collected in rounds, as the store holds it.
struct RoundState {
  std::uint32_t current = 1;  // the open round
  std::int64_t opened_unix = 0;
  std::uint32_t history = 1;  // closed rounds kept besides the open one
  // The oldest round whose graph can still be assembled: each user's newest
  // report up to it is kept (older ones give way when a round opens).
  std::uint32_t OldestKept() const { return current > history ? current - history : 1; }
};

// OpenRound's check that `open` is still the open round of `state`, and
// that a round after it can be numbered. Errors: kFailedPrecondition,
// kOutOfRange, as OpenRound's.
Status CheckRoundOpening(std::uint64_t graph_id, const RoundState& state, std::uint32_t open);

// ForEachReport's check that round `round` of a graph whose round state is
// `state` (nullopt: collected once) can be assembled. Errors: kFailedPrecondition.
Status CheckRoundKept(std::uint64_t graph_id, const std::optional<RoundState>& state, std::uint32_t round);

struct GraphReportCount {
  std::uint64_t graph_id = 0;
  std::uint64_t reports = 0;  // users who reported (in any round)
};

// A training job as the store keeps it: its last status, as JSON (the
// daemon's job resource).
struct StoredJob {
  std::uint64_t job_id = 0;
  std::string status_json;
};

// A job as the leader of shared stores claims it: its status and the
// request it was queued with (JSON the daemons' API encodes).
struct ClaimedJob {
  std::uint64_t job_id = 0;
  std::string status_json;
  std::string request_json;
};

// Called after each commit with the number of reports it made durable and
// how long the commit took; the daemon feeds it to /metrics.
using CommitObserver = std::function<void(std::size_t reports, double seconds)>;

class ReportStore {
 public:
  using InsertDone = std::function<void(Result<InsertOutcome>)>;

  virtual ~ReportStore() = default;

  // Queues `record`; `done` runs (on a store thread) once its transaction has
  // committed, or with kUnavailable when the store failed to commit. Many
  // queued inserts share one transaction (group commit).
  virtual void Insert(ReportRecord record, InsertDone done) = 0;

  // Errors: kFailedPrecondition when the id exists, kUnavailable on I/O.
  virtual Status CreateGraph(const StoredGraph& graph) = 0;
  // The graphs collected in rounds. Errors: kUnavailable.
  virtual Result<std::map<std::uint64_t, RoundState>> Rounds() = 0;
  // One graph's; nullopt for a graph collected once. Errors: kUnavailable.
  Result<std::optional<RoundState>> RoundStateOf(std::uint64_t graph_id);
  // Opens round `open + 1` of a graph collected in rounds whose open round
  // is `open`, and lets go of the reports no round from OldestKept() on
  // needs, in one transaction. Errors: kFailedPrecondition for a graph not
  // collected in rounds, or whose open round is no longer `open` (another
  // admin or daemon opened the next one: the message names the open
  // round); kOutOfRange past round 2^32 - 2; kUnavailable.
  virtual Result<RoundState> OpenRound(std::uint64_t graph_id, std::uint32_t open) = 0;
  virtual Result<std::vector<StoredGraph>> ListGraphs() = 0;
  virtual Result<std::vector<GraphReportCount>> CountReports() = 0;
  // Graph classification: the class of a whole graph, set by an admin (a
  // second call replaces it). Errors: kFailedPrecondition for an unknown graph.
  virtual Status SetGraphLabel(std::uint64_t graph_id, std::uint32_t label) = 0;
  virtual Result<std::map<std::uint64_t, std::uint32_t>> GraphLabels() = 0;
  // A graph's symmetrisation policy ("none", "or", "and"; checked by the
  // caller), set by an admin. Errors: kFailedPrecondition for an unknown graph.
  virtual Status SetGraphSymmetrisation(std::uint64_t graph_id, const std::string& rule) = 0;
  virtual Result<std::map<std::uint64_t, std::string>> GraphSymmetrisations() = 0;
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

  // Whether a report sent now would commit: what a load balancer's
  // readiness probe asks (/readyz). A SQLite store is the daemon's own
  // file, ready while the daemon lives. Errors: kUnavailable, saying why.
  virtual Status CheckReady() { return Status::Ok(); }

  // The bytes of the reports ForEachReport visits, summed: an upper bound
  // of the neighbour ids they list (each takes at least one byte of the
  // wire format), which is how memory estimates count a graph's edges
  // before assembling it (issue 66). Errors: kUnavailable.
  virtual Result<std::uint64_t> ReportBytes(std::uint64_t graph_id, std::uint32_t round) = 0;
  Result<std::uint64_t> ReportBytes(std::uint64_t graph_id) { return ReportBytes(graph_id, kNewestRound); }

  // Visits, in increasing user id, each user's newest report of a round up
  // to `round`: the graph as of that round. One snapshot: reports that
  // commit meanwhile are not seen. Errors: kFailedPrecondition when the
  // graph is collected in rounds and `round` is older than its oldest kept
  // round (checked in the same snapshot), kUnavailable.
  virtual Status ForEachReport(std::uint64_t graph_id, std::uint32_t round,
                               const std::function<void(const ReportRecord&)>& visit) = 0;
  Status ForEachReport(std::uint64_t graph_id, const std::function<void(const ReportRecord&)>& visit) {
    return ForEachReport(graph_id, kNewestRound, visit);
  }

  // Commits what is queued, answers every callback, stops the store's threads.
  // Inserts after Close() fail with kUnavailable.
  virtual void Close() = 0;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_STORE_REPORT_STORE_H_
