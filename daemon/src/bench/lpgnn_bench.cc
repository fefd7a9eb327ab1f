#include "bench/lpgnn_bench.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <numeric>
#include <vector>

#include "bench/percentile.h"
#include "dataset/graph_dataset.h"
#include "engine/packed_rows.h"
#include "engine/parallel.h"
#include "engine/permute_rows.h"
#include "graph/node_order.h"
#include "privacy/label_randomization.h"
#include "privacy/feature_mechanisms.h"
#include "train/lpgnn_pipeline.h"
#include "train/task_data.h"
#include "util/flags.h"

namespace ldpgraph {
namespace {

using Clock = std::chrono::steady_clock;

double Since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// Each index of `ids` as renumbered by `p`.

// A random arrival order of n users, as a daemon numbers them.
NodePermutation Arrival(std::uint32_t n) {
  std::vector<std::uint32_t> arrival(n);
  std::iota(arrival.begin(), arrival.end(), 0u);
  SeededRandomSource rng(72);
  for (std::uint32_t i = n; i > 1; --i) std::swap(arrival[i - 1], arrival[rng.NextU64() % i]);
  return NodePermutation::FromOrder(std::move(arrival));
}

}  // namespace

Status RunLpgnnBench(const LpgnnBenchOptions& o, std::ostream& out) {
  if (o.model != "gcn" && o.model != "sage") return Status::InvalidArgument("--model must be gcn or sage");
  if (!(o.feature_epsilon > 0) || !std::isfinite(o.feature_epsilon) || !(o.label_epsilon > 0)) {
    return Status::InvalidArgument("--feature-epsilon must be positive and finite, --label-epsilon positive");
  }
  if (o.kx < 0 || o.kx > 64 || o.epochs < 1) return Status::InvalidArgument("need 0 <= --kx <= 64 and --epochs >= 1");
  // By default the path TrainLpgnn takes on this CPU with its defaults.
  const std::vector<std::string> paths =
      !o.paths.empty() ? o.paths : std::vector<std::string>{PackedProductsFast() ? "packed" : "factored"};
  for (const std::string& p : paths) {
    if (p != "factored" && p != "packed" && p != "dense") {
      return Status::InvalidArgument("unknown path '" + p + "' (factored, packed or dense)");
    }
    if (p == "packed" && !PackedProductsFast()) {
      return Status::InvalidArgument("the packed path needs AMX bfloat16 tiles, which this CPU (or kernel, or "
                                     "LDPGRAPH_ISA) does not offer");
    }
  }
  Result<NodeOrder> order = o.node_order == "auto" ? Result<NodeOrder>(LpgnnOptions().node_order)
                                                   : ParseNodeOrder(o.node_order);
  if (!order.ok()) return order.status();
  const int threads = SetEngineThreads(o.threads);
  Result<GraphDataset> ds = ReadDataset(o.dataset);
  if (!ds.ok()) return ds.status();
  if (ds->feature_dims == 0) return Status::InvalidArgument("the dataset has no node features");
  Result<NodeTaskData> data = MakeNodeTaskData(*ds, Aggregation::kMean);
  if (!data.ok()) return data.status();
  ScaleColumnsToUnit(&data->features);

  const auto perturb_start = Clock::now();
  Result<NodeFeatures> reports = PerturbFeatures(data->features, FeatureMechanism::kMultiBit, o.feature_epsilon, 1);
  if (!reports.ok()) return reports.status();
  std::vector<int> labels = data->labels;
  if (std::isfinite(o.label_epsilon)) {
    LDPGRAPH_RETURN_IF_ERROR(RandomizeLabels(data->classes, o.label_epsilon, 2, &labels));
  }
  const double perturb_seconds = Since(perturb_start);
  // With --shuffle the daemon's numbering of the users, each keeping what
  // she sent; the dataset's own numbering otherwise, used as it is.
  const bool renumbered = o.shuffle;
  const NodePermutation renumbering = renumbered ? Arrival(ds->graphs[0].num_nodes()) : NodePermutation();
  const Split split = StratifiedSplit(data->labels, 0.50, 0.25, 0);
  const CsrGraph graph = renumbered ? PermuteGraph(ds->graphs[0], renumbering) : CsrGraph();
  if (renumbered) {
    *reports = PermuteRows(*reports, renumbering.old_of_new);
    labels = PermuteValues(labels, renumbering);
  }
  const std::vector<int> true_labels = renumbered ? PermuteValues(data->labels, renumbering) : data->labels;
  out << "dataset=" << ds->name << "\nmodel=" << o.model << "\nthreads=" << threads
      << "\nnodes=" << data->graph.num_nodes() << "\nedges=" << ds->graphs[0].num_entries() / 2
      << "\nfeatures=" << data->features.cols() << "\nfeature_epsilon=" << o.feature_epsilon
      << "\nlabel_epsilon=" << o.label_epsilon << "\nkx=" << o.kx << "\nperturb_seconds=" << perturb_seconds
      << "\nreported_entries=" << reports->factored().sparse.nnz() << "\nshuffled=" << (o.shuffle ? "yes" : "no")
      << "\nnode_order=" << o.node_order << "\n";
  out << "paths=";
  for (std::size_t i = 0; i < paths.size(); ++i) out << (i > 0 ? "," : "") << paths[i];
  out << "\n";
  out.flush();

  LpgnnInputs in;
  in.graph = renumbered ? &graph : &ds->graphs[0];
  in.labels = &labels;
  in.classes = data->classes;
  in.label_epsilon = o.label_epsilon;
  in.split = renumbered ? Split{RenumberIds(split.train, renumbering), RenumberIds(split.val, renumbering),
                                RenumberIds(split.test, renumbering)}
                       : split;
  in.test_labels = &true_labels;
  LpgnnOptions lo;
  lo.kind = o.model == "gcn" ? NodeGnnKind::kGcn : NodeGnnKind::kSage;
  lo.label_method = LabelMethod::kCrossEntropy;
  lo.kx_choices = {o.kx};
  lo.ky_choices = {0};
  lo.train.max_epochs = o.epochs;
  lo.dense_input_values = 0;  // --paths decides
  // TrainLpgnn renumbers the users itself: from its own size on (auto), or
  // at any size (an order named).
  lo.node_order = *order;
  if (o.node_order != "auto") lo.node_order_from = 0;
  std::map<std::string, double> seconds;
  for (const std::string& path : paths) {
    const auto start = Clock::now();
    lo.packed_input_bytes = path == "packed" ? std::numeric_limits<std::int64_t>::max() : 0;
    const NodeFeatures features = path == "dense" ? NodeFeatures::Dense(reports->ToDense()) : *reports;
    in.features = &features;
    int epochs = 0;
    std::vector<double> epoch_seconds;  // between the ends of successive epochs
    auto last = Clock::now();
    lo.on_progress = [&](const std::string&) {
      ++epochs;
      const auto now = Clock::now();
      epoch_seconds.push_back(std::chrono::duration<double>(now - last).count());
      last = now;
    };
    Result<LpgnnRun> run = TrainLpgnn(in, lo);
    if (!run.ok()) return run.status();
    seconds[path] = Since(start);
    out << path << "_feature_mb=" << static_cast<double>(features.bytes()) / 1e6 << "\n"
        << path << "_train_seconds=" << seconds[path] << "\n"
        << path << "_epochs=" << epochs << "\n"
        << path << "_first_epoch_seconds=" << (epoch_seconds.empty() ? 0.0 : epoch_seconds.front())
        << "\n"  // with the inputs' KProp
        << path << "_accuracy=" << run->test_accuracy << "\n"
        << path << "_peak_rss_mb=" << PeakRssMb() << "\n";
    if (epoch_seconds.size() > 1) {  // the first includes the inputs' KProp
      std::vector<double> later(epoch_seconds.begin() + 1, epoch_seconds.end());
      const std::size_t tenth = std::max<std::size_t>(1, later.size() / 10);
      auto mean = [](auto begin, auto end) { return std::accumulate(begin, end, 0.0) / static_cast<double>(end - begin); };
      out << path << "_epoch_seconds_first_tenth=" << mean(later.begin(), later.begin() + tenth) << "\n"
          << path << "_epoch_seconds_last_tenth=" << mean(later.end() - tenth, later.end()) << "\n";
      out << path << "_epoch_seconds_median=" << Percentile(later, 0.5) << "\n";
    }
    out.flush();
  }
  if (seconds.count("dense") != 0 && seconds.count("factored") != 0) {
    out << "dense_over_factored_seconds=" << seconds["dense"] / seconds["factored"] << "\n";
  }
  if (seconds.count("packed") != 0 && seconds.count("factored") != 0) {
    out << "packed_over_factored_seconds=" << seconds["packed"] / seconds["factored"] << "\n";
  }
  return Status::Ok();
}

}  // namespace ldpgraph
