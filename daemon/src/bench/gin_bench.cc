#include "bench/gin_bench.h"

#include <algorithm>

#include "dataset/graph_dataset.h"
#include "engine/parallel.h"
#include "models/gin.h"
#include "train/graph_trainer.h"
#include "util/flags.h"

namespace ldpgraph {

Status RunGinBench(const GinBenchOptions& o, std::ostream& out) {
  if (o.epochs < 1) return Status::InvalidArgument("--epochs must be at least 1");
  const int threads = SetEngineThreads(o.threads);
  Result<GraphDataset> ds = ReadDataset(o.dataset);
  if (!ds.ok()) return ds.status();
  GinConfig config;
  config.classes = static_cast<int>(std::max(2u, ds->num_classes));
  Result<GinModel> model = GinModel::Create(config, 0);
  if (!model.ok()) return model.status();
  std::vector<PreparedGraph> graphs;
  for (const CsrGraph& g : ds->graphs) graphs.push_back(PrepareGraph(g, Aggregation::kSumWithSelf));
  std::vector<int> labels(ds->labels.begin(), ds->labels.end());
  Split split = StratifiedSplit(labels, 0.75, 0.10, 0);
  GraphTrainOptions options;
  options.max_epochs = o.epochs;
  options.early_stopping = false;
  GraphTrainResult r = TrainGraphClassifier(&*model, graphs, ds->labels, split, options, {});
  std::vector<double> times = r.epoch_seconds;
  std::sort(times.begin(), times.end());
  std::uint64_t nodes = 0;
  for (auto id : split.train) nodes += graphs[id].num_nodes();
  out << "dataset=" << ds->name << "\nepochs=" << o.epochs << "\nthreads=" << threads
      << "\ntrain_graphs=" << split.train.size() << "\ntrain_nodes=" << nodes
      << "\nepoch_seconds=" << times[times.size() / 2] << "\nepoch_seconds_min=" << times.front()
      << "\npeak_rss_mb=" << PeakRssMb() << "\n";
  return Status::Ok();
}

}  // namespace ldpgraph
