#include "jobs/job_status.h"

#include <stdexcept>

#include <nlohmann/json.hpp>

namespace ldpgraph {

const char* JobStateName(JobState state) {
  switch (state) {
    case JobState::kQueued: return "queued";
    case JobState::kAssembling: return "assembling";
    case JobState::kTraining: return "training";
    case JobState::kSucceeded: return "succeeded";
    case JobState::kFailed: return "failed";
    case JobState::kCancelled: return "cancelled";
  }
  return "unknown";
}

namespace {

std::optional<JobState> ParseJobState(const std::string& name) {
  for (JobState s : {JobState::kQueued, JobState::kAssembling, JobState::kTraining, JobState::kSucceeded,
                     JobState::kFailed, JobState::kCancelled}) {
    if (name == JobStateName(s)) return s;
  }
  return std::nullopt;
}

}  // namespace

std::string JobStatusJson(const JobStatus& s) {
  nlohmann::json j = {{"job_id", s.id},
                      {"task", s.task},
                      {"state", JobStateName(s.state)},
                      {"graphs", s.graphs},
                      {"graphs_assembled", s.graphs_assembled},
                      {"epoch", s.epoch},
                      {"max_epochs", s.max_epochs},
                      {"val_accuracy", s.val_accuracy},
                      {"seconds", s.seconds}};
  if (s.state == JobState::kSucceeded) {
    j["test_accuracy"] = s.test_accuracy;
    if (s.test_auc) j["test_auc"] = *s.test_auc;
    j["model_version"] = s.model_version;
  }
  if (!s.error.empty()) j["error"] = s.error;
  return j.dump();
}

Result<JobStatus> JobStatusFromJson(const std::string& text) {
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  JobStatus s;
  try {
    if (!j.is_object()) throw std::invalid_argument("not an object");
    s.id = j.at("job_id").get<std::uint64_t>();
    s.task = j.value("task", "graph");
    const std::optional<JobState> state = ParseJobState(j.at("state").get<std::string>());
    if (!state) throw std::invalid_argument("unknown state");
    s.state = *state;
    s.graphs = j.at("graphs").get<std::size_t>();
    s.graphs_assembled = j.at("graphs_assembled").get<std::size_t>();
    s.epoch = j.at("epoch").get<int>();
    s.max_epochs = j.at("max_epochs").get<int>();
    s.val_accuracy = j.at("val_accuracy").get<double>();
    s.seconds = j.at("seconds").get<double>();
    s.test_accuracy = j.value("test_accuracy", 0.0);
    if (j.contains("test_auc")) s.test_auc = j["test_auc"].get<double>();
    s.model_version = j.value("model_version", std::uint64_t{0});
    s.error = j.value("error", "");
  } catch (const std::exception& e) {
    return Status::DataLoss(std::string("stored job status does not parse: ") + e.what());
  }
  return s;
}

bool JobOver(JobState s) { return s == JobState::kSucceeded || s == JobState::kFailed || s == JobState::kCancelled; }

}  // namespace ldpgraph
