// What a node or graph training job holds at its peak, estimated before it
// is queued (issue 66: a graph of 2^32 - 1 users took a daemon with a 1 GB
// budget to 21 GB and the OOM killer). The job is refused with 422 when the
// estimate exceeds the memory budget, and leases it while it runs, as GAP
// jobs do. An upper bound of the large allocations; `ldpgraph bench admin`
// prints it against the measured peak of a node job.
#ifndef LDPGRAPH_DAEMON_JOBS_TRAINING_MEMORY_H_
#define LDPGRAPH_DAEMON_JOBS_TRAINING_MEMORY_H_

#include <cstdint>

#include "requests/job_request.h"

namespace ldpgraph {

// `report_bytes`: the stored reports of the job's graphs, summed
// (ReportStore::ReportBytes): they bound the edges the graphs assemble to.
//   per user: ids, offsets and labels (128 bytes); the features' dense
//     copies (the rectified estimates, their KProp aggregates, the model's
//     input: 4 copies of 4 bytes a dimension); the labels' KProp (4 copies
//     of 4 bytes a class);
//   per user trained on at once (every user of a node job; for a graph job
//     the users of a batch of 128 of its largest graphs): every layer's
//     activations and their gradients (16 floats of the hidden width a layer);
//   per report byte: the assembled rows and what training builds of them
//     (the normalised adjacency, KProp's aggregates): 64 bytes, about
//     twice what a prediction holds;
//   the weights: 9 floats each (value, gradient, Adam's two moments, the
//     best epoch's copy and a step's temporaries, as GAP counts them).
std::uint64_t TrainingMemoryEstimate(const GraphJobRequest& request, std::uint64_t report_bytes);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_JOBS_TRAINING_MEMORY_H_
