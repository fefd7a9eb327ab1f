#include "api/model_predictions.h"

#include <algorithm>
#include <string>

#include "assembly/dataset_assembly.h"
#include "assembly/graph_assembler.h"
#include "graph/graph_batch.h"
#include "jobs/assembly_metrics.h"
#include "jobs/training_jobs.h"
#include "train/graph_trainer.h"
#include "train/lpgnn_pipeline.h"

namespace ldpgraph {

std::uint64_t PredictionMemory(std::uint64_t users, int hidden, int layers, std::uint64_t input_width,
                               std::uint64_t answers, std::uint64_t classes, std::uint64_t report_bytes) {
  const std::uint64_t activations =
      2 * 4 * static_cast<std::uint64_t>(std::max(hidden, 1)) * static_cast<std::uint64_t>(std::max(layers, 1));
  return users * (128 + 8 * input_width + activations) + report_bytes * kPeakBytesPerReportByte +
         answers * 2 * (48 + 24 * classes);
}

Result<std::uint64_t> StoredReportBytes(ServiceContext& ctx, const std::vector<GraphConfig>& graphs,
                                        std::uint32_t round) {
  std::uint64_t bytes = 0;
  for (const GraphConfig& g : graphs) {
    Result<std::uint64_t> b = ctx.store->ReportBytes(g.graph_id, round);
    if (!b.ok()) return b.status();
    bytes += *b;
  }
  return bytes;
}

Result<std::vector<Symmetrisation>> SymmetrisationPolicies(ServiceContext& ctx, const std::vector<GraphConfig>& graphs) {
  auto stored = ctx.store->GraphSymmetrisations();
  if (!stored.ok()) return stored.status();
  std::vector<Symmetrisation> rules;
  for (const GraphConfig& g : graphs) {
    auto it = stored->find(g.graph_id);
    Result<Symmetrisation> rule = ParseSymmetrisation(it == stored->end() ? "none" : it->second);
    if (!rule.ok()) return Status::DataLoss("graph " + std::to_string(g.graph_id) + ": " + rule.status().message());
    rules.push_back(*rule);
  }
  return rules;
}

Result<Matrix> NodeModelProbabilities(ServiceContext& ctx, const nlohmann::json& about, const AnyModel& model,
                                      const GraphConfig& graph) {
  if (model.node_probabilities.size() > 0) {
    // Trained on a denoised graph: what it predicted then (the graph would
    // need a first model to build again).
    if (model.node_probabilities.rows() < static_cast<Eigen::Index>(graph.num_users)) {
      return Status::DataLoss("the model file predicts fewer users than its graph has");
    }
    return model.node_probabilities;
  }
  Result<Symmetrisation> rule = ParseSymmetrisation(about.value("symmetrise", "none"));
  SeededRandomSource rng(about.value("seed", std::uint64_t{0}));
  // The round the model was trained on, for a graph collected in rounds.
  Result<AssembledGraph> assembled = AssembleGraph(graph, ctx.store, rule.ok() ? *rule : Symmetrisation::kNone, rng,
                                                   nullptr, nullptr, about.value("round", kNewestRound));
  if (!assembled.ok()) return assembled.status();
  DatasetAssemblyStats stats;
  stats.Add(*assembled);
  CountAssembly(ctx.metrics, stats);
  const NodeFeatures x = NodeModelInputs(assembled->adjacency, assembled->features,
                                         about.value("kx", 0), about.value("standardised", false));
  const PreparedGraph prepared = PrepareGraph(assembled->adjacency, AggregationFor(model.node->config().kind));
  return EvaluateNodes(model.node.get(), prepared, x, assembled->labels, {}).probs;
}

Result<Matrix> GraphModelProbabilities(ServiceContext& ctx, const nlohmann::json& about, const AnyModel& model,
                                       const std::vector<GraphConfig>& graphs) {
  // The rule the model was trained under, or each graph's policy now.
  Result<Symmetrisation> imposed = ParseSymmetrisation(about.is_discarded() ? "" : about.value("symmetrise", ""));
  Result<std::vector<Symmetrisation>> rules =
      imposed.ok() ? Result<std::vector<Symmetrisation>>(std::vector<Symmetrisation>(graphs.size(), *imposed))
                   : SymmetrisationPolicies(ctx, graphs);
  if (!rules.ok()) return rules.status();
  DatasetAssemblyStats stats;
  const std::vector<std::int64_t> no_labels(graphs.size(), 0);
  Result<GraphDataset> ds = AssembleGraphDataset(graphs, no_labels, ctx.store, *rules, 0, &stats);
  if (!ds.ok()) return ds.status();
  CountAssembly(ctx.metrics, stats);
  std::vector<PreparedGraph> prepared;
  std::vector<std::uint32_t> ids;
  const GinConfig& gin = model.gin->config();
  for (std::size_t g = 0; g < ds->graphs.size(); ++g) {
    prepared.push_back(PrepareGraph(ds->graphs[g], Aggregation::kSumWithSelf, gin.degree_cap, gin.size_input));
    ids.push_back(static_cast<std::uint32_t>(g));
  }
  return EvaluateGraphs(model.gin.get(), prepared, {}, ids, 64).probs;
}

}  // namespace ldpgraph
