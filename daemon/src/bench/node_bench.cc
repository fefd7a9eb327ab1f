#include "bench/node_bench.h"

#include <algorithm>
#include <chrono>
#include <vector>

#include "dataset/graph_dataset.h"
#include "engine/parallel.h"
#include "train/node_trainer.h"
#include "train/task_data.h"
#include "util/flags.h"

namespace ldpgraph {

Status RunNodeBench(const NodeBenchOptions& o, std::ostream& out) {
  if (o.epochs < 1) return Status::InvalidArgument("--epochs must be at least 1");
  if (o.hidden < 1) return Status::InvalidArgument("--hidden must be at least 1");
  if (o.model != "gcn" && o.model != "sage") return Status::InvalidArgument("--model must be gcn or sage");
  const int threads = SetEngineThreads(o.threads);
  using Clock = std::chrono::steady_clock;
  const auto load_start = Clock::now();
  Result<GraphDataset> ds = ReadDataset(o.dataset);
  if (!ds.ok()) return ds.status();
  const NodeGnnKind kind = o.model == "gcn" ? NodeGnnKind::kGcn : NodeGnnKind::kSage;
  Result<NodeTaskData> data = MakeNodeTaskData(*ds, AggregationFor(kind));
  if (!data.ok()) return data.status();
  const double load_seconds = std::chrono::duration<double>(Clock::now() - load_start).count();

  NodeGnnConfig config;
  config.kind = kind;
  config.input_dim = static_cast<int>(data->features.cols());
  config.hidden = o.hidden;
  config.classes = data->classes;
  Result<NodeGnnModel> model = NodeGnnModel::Create(config, 0);
  if (!model.ok()) return model.status();
  const Split split = StratifiedSplit(data->labels, 0.50, 0.25, 0);
  NodeTrainOptions options;
  options.max_epochs = o.epochs;
  options.early_stopping = false;
  // Whole epochs, the validation pass included: the time between callbacks.
  std::vector<double> times;
  auto last = Clock::now();
  TrainNodeClassifier(&*model, data->graph, data->features, data->labels, split, options, [&](const EpochReport&) {
    const auto now = Clock::now();
    times.push_back(std::chrono::duration<double>(now - last).count());
    last = now;
  });
  std::sort(times.begin(), times.end());
  const GatherPrecision gathers = DefaultGatherPrecision();
  out << "dataset=" << ds->name << "\nmodel=" << o.model << "\nepochs=" << o.epochs << "\nthreads=" << threads
      << "\ngathers=" << GatherPrecisionName(gathers) << "\ngathers_bf16="
      << (GathersBf16(gathers, data->graph.num_nodes(), o.hidden) ? "yes" : "no")
      << "\nnodes=" << data->graph.num_nodes() << "\nedges=" << ds->graphs[0].num_entries() / 2
      << "\nfeatures=" << data->features.cols()
      << "\nfeature_values_stored=" << (data->features.is_sparse() ? data->features.sparse().nnz() : data->features.dense().size())
      << "\nfeature_storage=" << (data->features.is_sparse() ? "sparse" : "dense")
      << "\nfeature_mb=" << static_cast<double>(data->features.bytes()) / 1e6 << "\nload_seconds=" << load_seconds
      << "\nepoch_seconds=" << times[times.size() / 2] << "\nepoch_seconds_min=" << times.front()
      << "\npeak_rss_mb=" << PeakRssMb() << "\n";
  return Status::Ok();
}

}  // namespace ldpgraph
