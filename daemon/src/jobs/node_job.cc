// Node classification: assembles one graph with its users' rectified
// features and randomized labels and trains GraphSAGE or GCN with LPGNN
// (TrainLpgnn, as `ldpgraph experiment lpgnn` does), on the reported edges
// or on the graph the link denoiser makes of them (TrainOnLinkReports, as
// `ldpgraph experiment linkldp` does).
#include <nlohmann/json.hpp>

#include "assembly/graph_assembler.h"
#include "jobs/assembly_metrics.h"
#include "jobs/job_kind.h"
#include "linkldp/denoised_training.h"
#include "train/lpgnn_pipeline.h"
#include "train/splits.h"

namespace ldpgraph {
namespace {

Status PrepareNodeJob(GraphJobRequest* request) {
  if (request->graphs.size() != 1) return Status::InvalidArgument("a node job trains on exactly one graph");
  const GraphConfig& g = request->graphs[0];
  if (!g.features.enabled || !g.label.enabled) {
    return Status::InvalidArgument("graph " + std::to_string(g.graph_id) +
                                   " collects no features or no labels: node classification needs both");
  }
  if (request->denoise && !DenoisableMechanism(g.edges.mechanism)) {
    return Status::InvalidArgument("graph " + std::to_string(g.graph_id) +
                                   "'s edges are not RR reports the link denoiser can use");
  }
  request->labels.assign(1, 0);
  return CheckAssembledJob(*request);
}

void AnnounceNodeJob(const GraphJobRequest& r, std::uint64_t job_id, Logger& logger) {
  logger.Info("job_started", {{"job_id", std::to_string(job_id)},
                              {"task", "node"},
                              {"graph_id", std::to_string(r.graphs[0].graph_id)}});
}

JobOutcome RunNodeJob(const GraphJobRequest& r, JobSession& session) {
  const GraphConfig& config = r.graphs[0];
  SeededRandomSource rng(r.seed);
  LinkReports links;
  Result<AssembledGraph> graph = AssembleGraph(config, &session.store(), r.rules[0], rng,
                                               r.denoise ? &links : nullptr, &session.cancelled(), r.round);
  if (session.cancelled()) return JobOutcome::Cancelled();
  if (!graph.ok()) return JobOutcome::Failed(graph.status().ToString());
  DatasetAssemblyStats stats;
  stats.Add(*graph);
  CountAssembly(session.metrics(), stats);
  session.UpdateDurably([](JobStatus& s) {
    s.graphs_assembled = 1;
    s.state = JobState::kTraining;
  });
  if (session.cancelled()) return JobOutcome::Cancelled();

  const NodeFeatures features = std::move(graph->features);  // rectified: factored
  LpgnnInputs in;
  in.graph = &graph->adjacency;
  in.features = &features;
  in.labels = &graph->labels;
  in.classes = static_cast<int>(config.label.classes);
  in.label_epsilon = config.label.epsilon;
  in.split = StratifiedSplit(graph->labels, 0.50, 0.25, r.seed);
  if (in.split.train.empty() || in.split.val.empty() || in.split.test.empty()) {
    return JobOutcome::Failed("too few users with a label to split them 50/25/25");
  }
  LpgnnOptions o;
  o.kind = r.node_model;
  o.label_method = r.label_method;
  if (r.hidden > 0) o.hidden = r.hidden;
  o.train.max_epochs = r.max_epochs;
  o.seed = r.seed;
  TrainedModel trained;
  AnyModel& model = trained.model;
  model.kind = r.node_model == NodeGnnKind::kGcn ? ModelKind::kGcn : ModelKind::kSage;
  std::string trained_on = "reported";
  std::uint64_t edges = stats.edges;
  auto train_denoised = [&]() -> Result<LpgnnRun> {
    graph->adjacency = CsrGraph();  // the denoised graph replaces the reported rows
    DenoisedTrainingOptions d;
    d.denoising = *r.denoise;
    d.seed = r.seed;  // rectified features: no feature similarity (noise pair by pair)
    Result<DenoisedRun> denoised = TrainOnLinkReports(links, in, o, d);
    if (!denoised.ok()) return denoised.status();
    trained_on = denoised->graph;
    edges = denoised->chosen_graph.graph.num_entries() / 2;
    model.node_probabilities = std::move(denoised->chosen.probabilities);
    return std::move(denoised->chosen.run);
  };
  Result<LpgnnRun> run = r.denoise ? train_denoised() : TrainLpgnn(in, o);
  if (!run.ok()) return JobOutcome::Failed(run.status().ToString());
  if (session.cancelled()) return JobOutcome::Cancelled();

  nlohmann::json classes = nlohmann::json::array();
  for (std::uint32_t c = 0; c < config.label.classes; ++c) classes.push_back(c);
  nlohmann::json about = {{"job_id", session.job_id()},
                          {"task", "node"},
                          {"model", ModelKindName(model.kind)},
                          {"label_method", LabelMethodName(r.label_method)},
                          {"graphs", nlohmann::json::array({config.graph_id})},
                          {"classes", classes},
                          {"symmetrise", SymmetrisationName(r.rules[0])},
                          {"denoise", r.denoise ? LinkDenoisingName(*r.denoise) : "none"},
                          // "reported" rows, or which denoised graph won on validation.
                          {"graph_used", trained_on},
                          {"seed", r.seed},
                          {"kx", run->kx},
                          {"standardised", in.rectified_features},
                          {"ky", run->ky},
                          {"val_accuracy", run->val_accuracy},
                          // Against the labels the server has: randomized ones under label privacy.
                          {"test_accuracy", run->test_accuracy},
                          {"users", stats.users},
                          {"reporters", stats.reporters},
                          {"edges", edges}};
  if (r.round != kNewestRound) about["round"] = r.round;  // a graph collected in rounds
  model.node = std::move(run->model);
  trained.about_json = about.dump();
  trained.val_accuracy = run->val_accuracy;
  trained.test_accuracy = run->test_accuracy;
  return JobOutcome::Trained(std::move(trained));
}

}  // namespace

const JobKind kNodeJob = {"node", PrepareNodeJob, AnnounceNodeJob, RunNodeJob};

}  // namespace ldpgraph
