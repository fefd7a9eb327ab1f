// Many assembled graphs as one graph-classification dataset: what the
// daemon's training jobs and predictions hand to the same pipeline the CLI and
// the experiments use (train/gin_pipeline.h).
#ifndef LDPGRAPH_DAEMON_ASSEMBLY_DATASET_ASSEMBLY_H_
#define LDPGRAPH_DAEMON_ASSEMBLY_DATASET_ASSEMBLY_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

#include "assembly/graph_assembler.h"
#include "dataset/graph_dataset.h"

namespace ldpgraph {

// Totals over assembled graphs (what /metrics counts).
struct DatasetAssemblyStats {
  std::uint64_t graphs = 0;
  std::uint64_t users = 0;
  std::uint64_t reporters = 0;
  std::uint64_t edges = 0;  // row entries after symmetrising

  void Add(const AssembledGraph& graph) {
    ++graphs;
    users += graph.adjacency.num_nodes();
    reporters += graph.reporters;
    edges += graph.adjacency.num_entries();
  }
};

// Graph g of the dataset is configs[g] assembled from `store` under rules[g],
// with raw label raw_labels[g] (labels are mapped to 0..C-1 in sorted order,
// as readers do).
// LocalLap's tie-breaks draw from a stream seeded by `seed` and the graph id.
// `progress(done, total)` after each graph when set; `cancel` stops it
// (AssemblyCancelled). Errors: AssembleGraph's.
Result<GraphDataset> AssembleGraphDataset(const std::vector<GraphConfig>& configs,
                                          const std::vector<std::int64_t>& raw_labels, ReportStore* store,
                                          const std::vector<Symmetrisation>& rules, std::uint64_t seed,
                                          DatasetAssemblyStats* stats,
                                          const std::function<void(std::size_t, std::size_t)>& progress = {},
                                          const std::atomic<bool>* cancel = nullptr);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_ASSEMBLY_DATASET_ASSEMBLY_H_
