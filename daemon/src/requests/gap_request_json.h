// A GAP job's options from the body of its request (POST /v1/admin/jobs
// with "task": "gap"). The API reads them when the job is asked for, and the
// leader of a shared store reads a queued GAP job's body again with them.
#ifndef LDPGRAPH_DAEMON_REQUESTS_GAP_REQUEST_JSON_H_
#define LDPGRAPH_DAEMON_REQUESTS_GAP_REQUEST_JSON_H_

#include <nlohmann/json.hpp>

#include "ldpgraph/status.h"
#include "requests/job_request.h"

namespace ldpgraph {

// Sets `job`'s GAP options, model and seed. Errors: kInvalidArgument with a
// message naming the bad field.
Status GapOptionsFromJson(const nlohmann::json& body, GraphJobRequest* job);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_REQUESTS_GAP_REQUEST_JSON_H_
