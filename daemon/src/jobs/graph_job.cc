// Graph classification: assembles the chosen graphs from their reports and
// trains GIN-0 through the one pipeline the CLI and the experiments use
// (TrainGinOnDataset).
#include <set>

#include <nlohmann/json.hpp>

#include "assembly/dataset_assembly.h"
#include "engine/kernels/kernel_table.h"
#include "jobs/assembly_metrics.h"
#include "jobs/job_kind.h"
#include "train/gin_pipeline.h"

namespace ldpgraph {
namespace {

Status PrepareGraphJob(GraphJobRequest* request) {
  if (request->graphs.size() < 2 || request->labels.size() != request->graphs.size()) {
    return Status::InvalidArgument("a training job needs at least 2 graphs, each with a label");
  }
  if (std::set<std::int64_t>(request->labels.begin(), request->labels.end()).size() < 2) {
    return Status::InvalidArgument("the graphs' labels must hold at least 2 classes");
  }
  return CheckAssembledJob(*request);
}

void AnnounceGraphJob(const GraphJobRequest& r, std::uint64_t job_id, Logger& logger) {
  logger.Info("job_started", {{"job_id", std::to_string(job_id)}, {"graphs", std::to_string(r.graphs.size())}});
}

JobOutcome RunGraphJob(const GraphJobRequest& r, JobSession& session) {
  DatasetAssemblyStats stats;
  Result<GraphDataset> dataset = AssembleGraphDataset(
      r.graphs, r.labels, &session.store(), r.rules, r.seed, &stats,
      [&](std::size_t done, std::size_t) { session.Update([&](JobStatus& s) { s.graphs_assembled = done; }); },
      &session.cancelled());
  if (session.cancelled()) return JobOutcome::Cancelled();
  if (!dataset.ok()) return JobOutcome::Failed(dataset.status().ToString());
  CountAssembly(session.metrics(), stats);
  session.UpdateDurably([](JobStatus& s) { s.state = JobState::kTraining; });

  GinRunOptions o;
  if (r.hidden > 0) o.model.hidden = r.hidden;
  o.model.layers = r.layers;
  if (Status s = SetGinNodeInput(r.node_input, &o.model); !s.ok()) return JobOutcome::Failed(s.ToString());
  o.train.max_epochs = r.max_epochs;
  o.train.bf16_products = r.bf16_products;
  o.train.cancel = &session.cancelled();
  o.seed = r.seed;
  double val_accuracy = 0;
  o.on_epoch = [&](const EpochReport& e) {
    val_accuracy = e.val_accuracy;
    session.Update([&](JobStatus& s) {
      s.epoch = e.epoch;
      s.val_accuracy = e.val_accuracy;
    });
  };
  Result<GinRun> run = TrainGinOnDataset(*dataset, o);
  if (!run.ok()) return JobOutcome::Failed(run.status().ToString());
  if (run->result.cancelled) return JobOutcome::Cancelled();

  nlohmann::json about = {{"job_id", session.job_id()},
                          {"task", "graph"},
                          {"model", "gin"},
                          {"symmetrise", r.rule_name},
                          {"node_input", r.node_input},
                          {"products", r.bf16_products && Bf16Kernels() != nullptr ? "bf16" : "float"},
                          {"seed", r.seed},
                          {"epochs", run->result.epochs},
                          {"best_epoch", run->result.best_epoch},
                          {"test_accuracy", run->result.test.accuracy},
                          {"test_auc", run->result.test.auc},
                          {"users", stats.users},
                          {"reporters", stats.reporters},
                          {"edges", stats.edges}};
  nlohmann::json graph_ids = nlohmann::json::array(), classes = nlohmann::json::array();
  for (const GraphConfig& g : r.graphs) graph_ids.push_back(g.graph_id);
  for (std::int64_t c : std::set<std::int64_t>(r.labels.begin(), r.labels.end())) classes.push_back(c);
  about["graphs"] = graph_ids;
  about["classes"] = classes;  // class k of the model is classes[k]
  TrainedModel trained;
  trained.model.kind = ModelKind::kGin;
  trained.model.gin = std::move(run->model);
  trained.about_json = about.dump();
  trained.val_accuracy = val_accuracy;  // of the last epoch, as the job's status showed it
  trained.test_accuracy = run->result.test.accuracy;
  trained.test_auc = run->result.test.auc;
  return JobOutcome::Trained(std::move(trained));
}

}  // namespace

const JobKind kGraphJob = {"graph", PrepareGraphJob, AnnounceGraphJob, RunGraphJob};

}  // namespace ldpgraph
