// TrainingJobs::RunGapJob: GAP or ProGAP on a held graph. The split (50/25/25,
// stratified from the seed) is drawn among the labelled nodes; the noise
// comes from the OS CSPRNG, as a model that is served must have. The model
// version records the guarantee and keeps every node's prediction, which is
// what the daemon serves for it.
#include <nlohmann/json.hpp>

#include "jobs/training_jobs.h"
#include "train/splits.h"

namespace ldpgraph {

void TrainingJobs::RunGapJob(Job* job) {
  const auto start = std::chrono::steady_clock::now();
  const GraphJobRequest& r = job->request;
  const HeldGraph& held = *r.held_graph;
  const std::string id = std::to_string(job->status.id);
  logger_->Info("job_started", {{"job_id", id}, {"task", "gap"}, {"held_graph", std::to_string(held.id)},
                                {"privacy", GapPrivacyName(r.gap.privacy)}, {"model", r.progap ? "progap" : "gap"}});
  auto finish = [&](JobState state, const std::string& error) { Finish(job, start, state, error); };
  if (job->cancel) return finish(JobState::kCancelled, "");
  // Its estimate, once the heavy requests in flight have left room for it.
  MemoryBudget::Lease lease;
  if (Status leased = LeaseMemory(job, &lease); !leased.ok()) return finish(JobState::kFailed, leased.message());
  UpdateDurably(job, [](JobStatus& s) {
    s.graphs_assembled = 1;
    s.state = JobState::kTraining;
  });

  const NodeFeatures features = NodeFeatures::Choose(held.features);
  GapInputs in;
  in.graph = &held.graph;
  in.features = &features;
  in.labels = &held.labels;
  in.classes = held.classes;
  in.split = StratifiedSplit(held.labels, 0.50, 0.25, r.seed);
  if (in.split.train.empty() || in.split.val.empty() || in.split.test.empty()) {
    return finish(JobState::kFailed, "too few labelled nodes to split them 50/25/25");
  }
  GapOptions o = r.gap;
  o.seed = r.seed;
  o.noise = nullptr;  // the OS CSPRNG
  o.on_progress = [&](int done, int total) {
    Update(job, [&](JobStatus& s) {
      s.epoch = done;
      s.max_epochs = total;
    });
  };
  o.cancel = &job->cancel;
  GapRelease run;  // what either trainer reports that the model version records
  nlohmann::json extra;
  if (r.progap) {
    Result<ProGapRun> trained = TrainProGap(in, o);
    if (job->cancel) return finish(JobState::kCancelled, "");
    if (!trained.ok()) return finish(JobState::kFailed, trained.status().ToString());
    extra = {{"stages", trained->stages}, {"stage_test_accuracy", trained->stage_test_accuracy}};
    run = std::move(static_cast<GapRelease&>(*trained));
  } else {
    Result<GapRun> trained = TrainGap(in, o);
    if (job->cancel) return finish(JobState::kCancelled, "");
    if (!trained.ok()) return finish(JobState::kFailed, trained.status().ToString());
    extra = {{"residual", trained->residual}};
    run = std::move(static_cast<GapRelease&>(*trained));
  }

  nlohmann::json classes = nlohmann::json::array();
  for (int c = 0; c < held.classes; ++c) classes.push_back(c);
  nlohmann::json about = {{"job_id", job->status.id},
                          {"task", "node"},
                          {"model", r.progap ? "progap" : "gap"},
                          {"held_graph", held.id},
                          {"classes", classes},
                          {"seed", r.seed},
                          {"privacy", GapPrivacyName(run.privacy)},
                          {"epsilon", std::isinf(run.epsilon) ? nlohmann::json("inf") : nlohmann::json(run.epsilon)},
                          {"delta", run.delta},
                          {"noise_multiplier", run.noise_multiplier},
                          {"noise_stddev", run.noise_stddev},
                          {"sensitivity", run.sensitivity},
                          {"max_degree", run.max_degree},
                          {"hops", o.model.hops},
                          {"val_accuracy", run.val_accuracy},
                          {"test_accuracy", run.test_accuracy},
                          {"mlp_test_accuracy", run.mlp_test_accuracy},
                          {"users", held.graph.num_nodes()},
                          {"edges", held.edges()}};
  about.update(extra);
  AnyModel model;
  model.kind = ModelKind::kGap;
  model.gap = std::move(run.model);
  Publish(job, start, model, about.dump(), run.val_accuracy, run.test_accuracy);
}

}  // namespace ldpgraph
