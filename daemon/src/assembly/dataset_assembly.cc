#include "assembly/dataset_assembly.h"

#include "util/seed_mix.h"

namespace ldpgraph {

Result<GraphDataset> AssembleGraphDataset(const std::vector<GraphConfig>& configs,
                                          const std::vector<std::int64_t>& raw_labels, ReportStore* store,
                                          const std::vector<Symmetrisation>& rules, std::uint64_t seed,
                                          DatasetAssemblyStats* stats,
                                          const std::function<void(std::size_t, std::size_t)>& progress,
                                          const std::atomic<bool>* cancel) {
  if (raw_labels.size() != configs.size() || rules.size() != configs.size()) {
    return Status::Internal("one label and one symmetrisation rule per graph are needed");
  }
  *stats = DatasetAssemblyStats{};
  GraphDataset ds;
  ds.format = DatasetFormat::kS2v;
  ds.name = "daemon";
  for (std::size_t g = 0; g < configs.size(); ++g) {
    SeededRandomSource rng(MixSeed(seed, configs[g].graph_id));
    Result<AssembledGraph> assembled = AssembleGraph(configs[g], store, rules[g], rng, nullptr, cancel);
    if (!assembled.ok()) {
      return Status(assembled.status().code(),
                    "graph " + std::to_string(configs[g].graph_id) + ": " + assembled.status().message());
    }
    stats->Add(*assembled);
    ds.graphs.push_back(std::move(assembled->adjacency));
    ds.raw_labels.push_back(raw_labels[g]);
    if (progress) progress(g + 1, configs.size());
  }
  MapLabels(&ds);
  return ds;
}

}  // namespace ldpgraph
