// The training request a daemon queues in a shared store, as JSON, and back
// (jobs/training_jobs.h): the request as this daemon
// resolved it (graph configurations, labels and symmetrisation rules as they
// were when it was queued), so that the leader, whichever daemon it is,
// trains what the admin asked for. A GAP job travels as its request's body
// and its held graph's id; the leader reads the graph from the shared store.
#ifndef LDPGRAPH_DAEMON_REQUESTS_JOB_REQUEST_CODEC_H_
#define LDPGRAPH_DAEMON_REQUESTS_JOB_REQUEST_CODEC_H_

#include <string>

#include "requests/job_request.h"
#include "store/held_graph_store.h"

namespace ldpgraph {

std::string EncodeJobRequest(const GraphJobRequest& request);
// `held_graphs`: where a GAP job's graph is read. Errors: kDataLoss for text
// that is not an encoded request, kFailedPrecondition for a held graph
// since removed, the store's.
Result<GraphJobRequest> DecodeJobRequest(const std::string& text, const HeldGraphStore* held_graphs);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_REQUESTS_JOB_REQUEST_CODEC_H_
