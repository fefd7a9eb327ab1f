#include "bench/gin_bench.h"

#include <algorithm>

#include "bench/cpu_rate.h"
#include "dataset/graph_dataset.h"
#include "engine/allocator.h"
#include "engine/kernels/kernel_table.h"
#include "engine/parallel.h"
#include "graph/colour_classes.h"
#include "models/gin.h"
#include "train/graph_trainer.h"
#include "util/flags.h"

namespace ldpgraph {
namespace {

// Multiply-add flops per row per epoch in GIN layer k's MLP: forward,
// weight gradient and input gradient (three products of the same size).
// The rest of an epoch (neighbour sums, BatchNorm, ReLU, the per-graph
// readout) streams memory, so this is the arithmetic the epoch must do.
double LinearFlopsPerRow(const GinConfig& c, int k) {
  const double in = k == 0 ? c.input_dim : c.hidden, hidden = c.hidden;
  return 3 * 2.0 * (in * hidden + hidden * hidden);
}

// The rows each layer's MLP runs on in one epoch over `ids`: the nodes, or
// with colour classes the classes of each graph (batches stack them).
std::vector<double> RowsPerLayer(const GinConfig& c, const std::vector<PreparedGraph>& graphs,
                                 const std::vector<std::uint32_t>& ids, bool classes) {
  const GraphBatch all = MakeBatch(graphs, ids, {});
  const ColourClasses found = BuildColourClasses(all, all.inputs, c.layers - 1, c.mean_readout, 1.0);
  std::vector<double> rows;
  for (int k = 0; k + 1 < c.layers; ++k) {
    rows.push_back(static_cast<double>(classes ? found.levels[static_cast<std::size_t>(k) + 1].step.rows
                                               : all.inputs.rows()));
  }
  return rows;
}

}  // namespace

Status RunGinBench(const GinBenchOptions& o, std::ostream& out) {
  if (o.epochs < 1) return Status::InvalidArgument("--epochs must be at least 1");
  const int threads = SetEngineThreads(o.threads);
  Result<GraphDataset> ds = ReadDataset(o.dataset);
  if (!ds.ok()) return ds.status();
  GinConfig config;
  config.classes = static_cast<int>(std::max(2u, ds->num_classes));
  Result<GinModel> model = GinModel::Create(config, 0);
  if (!model.ok()) return model.status();
  model->ShareColourClasses(o.colour_classes);
  std::vector<PreparedGraph> graphs;
  for (const CsrGraph& g : ds->graphs) graphs.push_back(PrepareGraph(g, Aggregation::kSumWithSelf));
  std::vector<int> labels(ds->labels.begin(), ds->labels.end());
  Split split = StratifiedSplit(labels, 0.75, 0.10, 0);
  GraphTrainOptions options;
  options.max_epochs = o.epochs;
  options.early_stopping = false;
  options.bf16_products = o.bf16_products;
  GraphTrainResult r = TrainGraphClassifier(&*model, graphs, ds->labels, split, options, {});
  std::vector<double> times = r.epoch_seconds;
  std::sort(times.begin(), times.end());
  std::uint64_t nodes = 0;
  for (auto id : split.train) nodes += graphs[id].num_nodes();
  const double epoch_seconds = times[times.size() / 2];
  // Batches fall back to nodes above GinModel's share; REDDIT-BINARY's stay well below it.
  const std::vector<double> rows = RowsPerLayer(config, graphs, split.train, o.colour_classes);
  double linear_flops = 0, node_flops = 0, row_sum = 0;
  for (int k = 0; k + 1 < config.layers; ++k) {
    linear_flops += LinearFlopsPerRow(config, k) * rows[static_cast<std::size_t>(k)];
    node_flops += LinearFlopsPerRow(config, k) * static_cast<double>(nodes);
    row_sum += rows[static_cast<std::size_t>(k)];
  }
  const double peak = FmaPeakPerCore(0.3) * threads;
  // bf16 only where AMX takes the products; float otherwise, and said so.
  const bool bf16 = o.bf16_products && Bf16Kernels() != nullptr;
  out << "dataset=" << ds->name << "\nepochs=" << o.epochs << "\nthreads=" << threads
      << "\nproducts=" << (bf16 ? "bf16" : "float") << "\ngathers=" << GatherPrecisionName(DefaultGatherPrecision())
      << "\ntrain_graphs=" << split.train.size() << "\ntrain_nodes=" << nodes << "\nepoch_seconds=" << epoch_seconds
      << "\nepoch_seconds_min=" << times.front() << "\ncolour_classes=" << (o.colour_classes ? "on" : "off")
      << "\nclass_rows_share=" << row_sum / (static_cast<double>(nodes) * (config.layers - 1))
      << "\nnode_path_gflop_per_epoch=" << node_flops / 1e9 << "\nlinear_gflop_per_epoch=" << linear_flops / 1e9
      << "\nlinear_gflops=" << linear_flops / epoch_seconds / 1e9 << "\nfma_peak_gflops=" << peak / 1e9
      << "\nlinear_share_of_peak=" << linear_flops / epoch_seconds / peak;
  if (bf16) {  // the peak the products ran against
    const double tile_peak = Bf16TilePeakPerCore(0.3) * threads;
    out << "\nbf16_tile_peak_gflops=" << tile_peak / 1e9
        << "\nlinear_share_of_bf16_peak=" << linear_flops / epoch_seconds / tile_peak;
  }
  out << "\nmalloc=" << MallocName() << "\npeak_rss_mb=" << PeakRssMb() << "\n";
  return Status::Ok();
}

}  // namespace ldpgraph
