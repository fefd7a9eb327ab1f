// GAP or ProGAP on a held graph. The split (50/25/25, stratified from the
// seed) is drawn among the labelled nodes; the noise comes from the OS
// CSPRNG, as a model that is served must have. The model version records
// the guarantee and keeps every node's prediction, which is what the daemon
// serves for it.
#include <cmath>

#include <nlohmann/json.hpp>

#include "gap/gap_pipeline.h"
#include "gap/progap_pipeline.h"
#include "jobs/job_kind.h"
#include "train/splits.h"

namespace ldpgraph {
namespace {

Status PrepareGapJob(GraphJobRequest* request) {
  if (!request->held_graph) return Status::InvalidArgument("a GAP job needs a held graph");
  const GapOptions resolved = ResolveGapOptions(request->gap, 1);
  request->max_epochs =
      request->progap ? ProGapEpochs(request->gap) : resolved.encoder_epochs + resolved.classifier_epochs;
  return Status::Ok();
}

void AnnounceGapJob(const GraphJobRequest& r, std::uint64_t job_id, Logger& logger) {
  logger.Info("job_started", {{"job_id", std::to_string(job_id)}, {"task", "gap"},
                              {"held_graph", std::to_string(r.held_graph->id)},
                              {"privacy", GapPrivacyName(r.gap.privacy)}, {"model", r.progap ? "progap" : "gap"}});
}

JobOutcome RunGapJob(const GraphJobRequest& r, JobSession& session) {
  const HeldGraph& held = *r.held_graph;
  session.UpdateDurably([](JobStatus& s) {
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
    return JobOutcome::Failed("too few labelled nodes to split them 50/25/25");
  }
  GapOptions o = r.gap;
  o.seed = r.seed;
  o.noise = nullptr;  // the OS CSPRNG
  o.on_progress = [&](int done, int total) {
    session.Update([&](JobStatus& s) {
      s.epoch = done;
      s.max_epochs = total;
    });
  };
  o.cancel = &session.cancelled();
  GapRelease run;  // what either trainer reports that the model version records
  nlohmann::json extra;
  if (r.progap) {
    Result<ProGapRun> trained = TrainProGap(in, o);
    if (session.cancelled()) return JobOutcome::Cancelled();
    if (!trained.ok()) return JobOutcome::Failed(trained.status().ToString());
    extra = {{"stages", trained->stages}, {"stage_test_accuracy", trained->stage_test_accuracy}};
    run = std::move(static_cast<GapRelease&>(*trained));
  } else {
    Result<GapRun> trained = TrainGap(in, o);
    if (session.cancelled()) return JobOutcome::Cancelled();
    if (!trained.ok()) return JobOutcome::Failed(trained.status().ToString());
    extra = {{"residual", trained->residual}};
    run = std::move(static_cast<GapRelease&>(*trained));
  }

  nlohmann::json classes = nlohmann::json::array();
  for (int c = 0; c < held.classes; ++c) classes.push_back(c);
  nlohmann::json about = {{"job_id", session.job_id()},
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
  TrainedModel model;
  model.model.kind = ModelKind::kGap;
  model.model.gap = std::move(run.model);
  model.about_json = about.dump();
  model.val_accuracy = run.val_accuracy;
  model.test_accuracy = run.test_accuracy;
  return JobOutcome::Trained(std::move(model));
}

}  // namespace

const JobKind kGapJob = {"gap", PrepareGapJob, AnnounceGapJob, RunGapJob};

}  // namespace ldpgraph
