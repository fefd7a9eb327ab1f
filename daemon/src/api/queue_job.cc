#include "api/queue_job.h"

#include <nlohmann/json.hpp>

#include "net/json_response.h"

namespace ldpgraph {

HttpResponse QueueJob(ServiceContext& ctx, GraphJobRequest job) {
  Result<std::uint64_t> id = ctx.jobs->Start(std::move(job));
  if (id.status().code() == StatusCode::kUnavailable) return ErrorResponse(503, "unavailable", id.status().message());
  if (!id.ok()) return ErrorResponse(422, "cannot_train", id.status().message());
  Result<std::optional<JobStatus>> status = ctx.jobs->Get(*id);
  HttpResponse r = status.ok() && *status ? JsonResponse(202, JobStatusJson(**status))
                                          : JsonResponse(202, nlohmann::json{{"job_id", *id}, {"state", "queued"}}.dump());
  r.headers.emplace_back("Location", "/v1/admin/jobs/" + std::to_string(*id));
  return r;
}

}  // namespace ldpgraph
