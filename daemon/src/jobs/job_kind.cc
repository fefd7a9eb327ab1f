#include "jobs/job_kind.h"

#include <utility>

namespace ldpgraph {

JobOutcome JobOutcome::Trained(TrainedModel model) {
  JobOutcome o;
  o.state = JobState::kSucceeded;
  o.trained = std::move(model);
  return o;
}

JobOutcome JobOutcome::Cancelled() {
  JobOutcome o;
  o.state = JobState::kCancelled;
  return o;
}

JobOutcome JobOutcome::Failed(std::string error) {
  JobOutcome o;
  o.state = JobState::kFailed;
  o.error = std::move(error);
  return o;
}

Status CheckAssembledJob(const GraphJobRequest& request) {
  if (request.rules.size() != request.graphs.size()) {
    return Status::InvalidArgument("one symmetrisation rule per graph is needed");
  }
  if (request.max_epochs < 1 || request.hidden < 0 || request.layers < 2) {
    return Status::InvalidArgument("need epochs >= 1, hidden >= 1 (or 0: the model's default) and layers >= 2");
  }
  return Status::Ok();
}

const JobKind& KindOf(JobTask task) {
  switch (task) {
    case JobTask::kNode: return kNodeJob;
    case JobTask::kGap: return kGapJob;
    case JobTask::kGraph: break;
  }
  return kGraphJob;
}

}  // namespace ldpgraph
