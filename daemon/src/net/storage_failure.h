// A write of the daemon's own files failed (a full disk, a read-only
// mount, a quota): the operator learns of it from the log, with the path
// and the OS's reason, at most once a second so that a client retrying
// cannot flood it; the client gets 503 with the reason and no path (the
// server's layout is not the client's business).
#ifndef LDPGRAPH_DAEMON_NET_STORAGE_FAILURE_H_
#define LDPGRAPH_DAEMON_NET_STORAGE_FAILURE_H_

#include <cstdint>
#include <string>

#include "ldpgraph/status.h"
#include "net/http_types.h"
#include "net/logger.h"

namespace ldpgraph {

// Logs `status` (a failed write of `what`, e.g. "held graph 7") as
// storage_write_failed, rate-limited; the message a client may see.
std::string ReportStorageFailure(Logger* logger, const std::string& what, const Status& status);

// Counts a failed write that was not reported through ReportStorageFailure
// (a report's commit, answered per item). Process-wide, as the store is.
void CountStorageFailure();
// Failed writes so far, ReportStorageFailure's included:
// ldpgraph_store_failures_total.
std::uint64_t StorageFailures();

// That message as a 503 answer (reason "unavailable", Retry-After 60).
HttpResponse StorageFailureResponse(Logger* logger, const std::string& what, const Status& status);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_NET_STORAGE_FAILURE_H_
