// The last step of every job submission, whatever the job's kind (GIN and
// node jobs from learning_api, GAP from held_graph_api): queue it and answer.
// Below both handlers, so neither calls back into the other.
#ifndef LDPGRAPH_DAEMON_API_QUEUE_JOB_H_
#define LDPGRAPH_DAEMON_API_QUEUE_JOB_H_

#include "api/service_context.h"
#include "net/http_types.h"

namespace ldpgraph {

// Queues `job`: 202 with the job and its Location; 422 cannot_train for what
// TrainingJobs refuses, 503 when the store cannot record it.
HttpResponse QueueJob(ServiceContext& ctx, GraphJobRequest job);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_API_QUEUE_JOB_H_
