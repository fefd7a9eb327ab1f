// ReportStore: where accepted reports live, one per (graph, user, round),
// and how they are read back for assembly. One of the four interfaces a
// store backend implements (store.h has the contract they keep together).
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

struct GraphReportCount {
  std::uint64_t graph_id = 0;
  std::uint64_t reports = 0;  // users who reported (in any round)
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

  virtual Result<std::vector<GraphReportCount>> CountReports() = 0;

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
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_STORE_REPORT_STORE_H_
