#include "bench/roofline_bench.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "bench/epoch_profiles.h"
#include "bench/machine_limits.h"
#include "bench/roofline_kernels.h"
#include "dataset/generators.h"
#include "engine/kernels/kernel_table.h"
#include "engine/packed_rows.h"
#include "engine/parallel.h"
#include "experiments/svg_plot.h"
#include "train/task_data.h"

namespace ldpgraph {
namespace {

// A kernel that takes more than this share of an epoch should reach at
// least kWantedFraction of its bound (issue 72's target).
constexpr double kHotShare = 0.05;
constexpr double kWantedFraction = 0.60;

Status Check(const RooflineBenchOptions& o) {
  if (o.nodes < 1000 || o.nodes > 100'000'000) return Status::InvalidArgument("--nodes must be in [1000, 10^8]");
  if (!(o.degree > 0 && o.degree <= 1000)) return Status::InvalidArgument("--degree must be in (0, 1000]");
  if (o.features < 8 || o.words < 1) return Status::InvalidArgument("need --features >= 8 and --words >= 1");
  if (o.graphs < 20) return Status::InvalidArgument("--graphs must be at least 20");
  if (o.kx < 0 || o.kx > 64) return Status::InvalidArgument("--kx must be in [0, 64]");
  if (o.epochs < 1 || o.epochs > 100) return Status::InvalidArgument("--epochs must be in [1, 100]");
  if (!(o.seconds > 0 && o.seconds <= 60)) return Status::InvalidArgument("--seconds must be in (0, 60]");
  if (o.big_mb < 16 || o.big_mb > 16384) return Status::InvalidArgument("--big-mb must be in [16, 16384]");
  if (o.svg.empty()) return Status::InvalidArgument("--svg names no file");
  return Status::Ok();
}

// An operation's name as a key: "AggregateBy/16" -> "AggregateBy_16".
std::string KeyOf(std::string op) {
  std::replace(op.begin(), op.end(), '/', '_');
  return op;
}

void PrintLimits(const MachineLimits& m, std::ostream& out) {
  out << "machine_fma_gflops_core=" << m.fma_flops_core / 1e9 << "\nmachine_fma_gflops_all=" << m.fma_flops_all / 1e9
      << "\nmachine_latency_ns=" << m.latency_ns << "\nmachine_dropout_draws_per_second_core=" << m.dropout_draws_per_second
      << "\nmachine_libm_exps_per_second_core=" << m.libm_exps_per_second
      << "\nmachine_libm_logs_per_second_core=" << m.libm_logs_per_second << "\n";
  for (std::size_t i = 0; i < m.streams.size(); ++i) {
    const std::string mb = std::to_string(std::llround(m.streams[i].footprint_bytes / (1 << 20))) + "mb=";
    out << "machine_read_gbs_" << mb << m.streams[i].read_bytes_per_second / 1e9 << "\nmachine_rmw_gbs_" << mb
        << m.streams[i].rmw_bytes_per_second / 1e9 << "\nmachine_gather_ns_per_line_" << mb
        << m.gathers[i].ns_per_line << "\n";
  }
  out.flush();
}

void PrintProfile(const EpochProfile& p, std::ostream& out) {
  const std::string k = "epoch_" + p.model + "_";
  out << k << "seconds=" << p.epoch_seconds << "\n"
      << k << "outside_operations_share=" << std::max(0.0, 1 - p.OpSeconds() / p.epoch_seconds) << "\n";
  // Every operation the epoch ran, however short (the shares below leave
  // out those under 1%): which route it took does not depend on timing.
  out << k << "operations=";
  for (auto it = p.ops.begin(); it != p.ops.end(); ++it) out << (it == p.ops.begin() ? "" : ",") << it->first;
  out << "\n";
  for (const auto& [op, t] : p.ops) {
    if (t.seconds() < 0.01 * p.epoch_seconds) continue;  // the rest adds up to the outside share's complement
    out << k << "op_" << KeyOf(op) << "_share=" << t.seconds() / p.epoch_seconds << "\n"
        << k << "op_" << KeyOf(op) << "_backward_share=" << t.backward_seconds / p.epoch_seconds << "\n";
  }
  out.flush();
}

const char* BoundBy(const KernelTiming& k, const MachineLimits& m) {
  const KernelCost& c = k.cost;
  if (k.paired_stream_seconds > c.BoundSeconds(m)) return "streams_paired";
  if (c.ComputeSeconds(m) >= c.MemorySeconds(m)) {
    return c.libm_exps > 0 ? "libm_calls" : c.dropout_draws > 0 ? "dropout_draws" : "compute";
  }
  const double gathers = c.random_lines * m.GatherNsPerLine(c.footprint_bytes) * 1e-9;
  return gathers > c.MemorySeconds(m) - gathers ? "gathers" : "streams";
}

Status WriteChart(const std::string& path, const MachineLimits& m, const std::vector<KernelTiming>& kernels) {
  PlotSpec spec;
  spec.title = "Roofline: the engine's kernels on this machine";
  spec.x_label = "arithmetic intensity (flops per byte)";
  spec.y_label = "GFLOP/s";
  spec.log_x = spec.log_y = true;
  std::vector<PlotSeries> series;
  const double peak = m.fma_flops_all / 1e9;
  // The ceilings: min(peak, bandwidth x intensity), for streamed bytes and for random lines.
  const double gather_gbs = 64 / m.gathers.back().ns_per_line;
  auto roof = [&](std::string name, double gbs) {
    PlotSeries s{std::move(name), {}, {}, {}};
    for (double x = 1.0 / 64; x <= 1024; x *= 2) {
      s.x.push_back(x);
      s.y.push_back(std::min(peak, gbs * x));
    }
    return s;
  };
  const double dram = m.streams.back().read_bytes_per_second / 1e9;
  const double cache = m.streams.front().read_bytes_per_second / 1e9;
  // Short names: the legend's column is narrow.
  series.push_back(roof("L2: " + std::to_string(std::lround(cache)) + " GB/s", cache));
  series.push_back(roof("memory: " + std::to_string(std::lround(dram)) + " GB/s", dram));
  series.push_back(roof("random lines: " + std::to_string(std::lround(gather_gbs)) + " GB/s", gather_gbs));
  for (const KernelTiming& k : kernels) {
    PlotSeries s{k.name, {k.cost.Intensity()}, {k.cost.flops / k.seconds / 1e9}, {}};
    series.push_back(std::move(s));
  }
  return WriteSvg(path, spec, series);
}

}  // namespace

Status RunRooflineBench(const RooflineBenchOptions& o, std::ostream& out) {
  LDPGRAPH_RETURN_IF_ERROR(Check(o));
  const int threads = SetEngineThreads(o.threads);
  out << "threads=" << threads << "\nkernel_isa=" << Kernels().isa << "\n";
  const MachineLimits limits = MeasureMachineLimits(threads, o.seconds, std::int64_t{o.big_mb} << 20);
  PrintLimits(limits, out);

  SeededRandomSource rng(o.seed);
  NodeDatasetSpec spec;
  spec.nodes = o.nodes;
  spec.mean_degree = o.degree;
  spec.features = o.features;
  spec.words = o.words;
  LDPGRAPH_RETURN_IF_ERROR(CheckNodeDatasetSpec(spec));
  const GraphDataset social = SyntheticNodeDataset(spec, rng);
  SyntheticSpec graph_spec;  // REDDIT-BINARY's size: about 430 users a graph, 2.3 friends each
  graph_spec.graphs = o.graphs;
  graph_spec.min_nodes = 200;
  graph_spec.max_nodes = 660;
  graph_spec.mean_degree = 2.3;
  const GraphDataset graphs = SyntheticCommunities(graph_spec, rng);
  out << "nodes=" << o.nodes << "\nedges=" << social.graphs[0].num_entries() / 2 << "\nfeatures=" << o.features
      << "\ngin_graphs=" << o.graphs << "\n";
  // Whether the LPGNN epoch's first layer reads packed inputs (AMX tiles).
  out << "packed_inputs=" << PackedProductRoute() << "\n";

  std::vector<EpochProfile> epochs;
  for (int model = 0; model < 3; ++model) {
    Result<EpochProfile> p = model == 0   ? ProfileLpgnnEpochs(social, o.kx, o.epochs)
                             : model == 1 ? ProfileGcnEpochs(social, o.epochs)
                                          : ProfileGinEpochs(graphs, o.epochs);
    if (!p.ok()) return p.status();
    PrintProfile(*p, out);
    epochs.push_back(std::move(*p));
  }

  Result<NodeTaskData> data = MakeNodeTaskData(social, Aggregation::kGcn);
  if (!data.ok()) return data.status();
  if (!data->features.is_sparse()) return Status::Internal("the generated features were not kept sparse");
  KernelShapes shapes;
  shapes.graph = &data->graph;
  shapes.features = &data->features.sparse();
  shapes.classes = data->classes;
  const std::vector<KernelTiming> kernels = TimeKernels(shapes, o.seconds);

  std::vector<std::string> below, below_serial, unmodelled;
  for (const KernelTiming& k : kernels) {
    const std::string p = "kernel_" + k.name + "_";
    const double bound = k.BoundSeconds(limits);
    out << p << "op=" << k.op << "\n" << p << "shape=" << k.shape << "\n" << p << "seconds=" << k.seconds << "\n"
        << p << "gflops=" << k.cost.flops / k.seconds / 1e9 << "\n" << p << "intensity=" << k.cost.Intensity() << "\n"
        << p << "bound_seconds=" << bound << "\n" << p << "compute_seconds=" << k.cost.ComputeSeconds(limits) << "\n"
        << p << "memory_seconds=" << k.cost.MemorySeconds(limits) << "\n" << p << "bound_by=" << BoundBy(k, limits) << "\n"
        << p << "fraction_of_bound=" << bound / k.seconds << "\n";
    if (k.paired_stream_seconds > 0) out << p << "paired_stream_seconds=" << k.paired_stream_seconds << "\n";
    const double serial = k.SerialSeconds(limits);
    out << p << "serial_seconds=" << serial << "\n" << p << "fraction_of_serial=" << serial / k.seconds << "\n";
    for (const EpochProfile& e : epochs) {
      const double share = e.Share(k.op);
      if (share == 0) continue;
      out << p << "share_of_" << e.model << "_epoch=" << share << "\n";
      if (share > kHotShare && bound / k.seconds < kWantedFraction) below.push_back(e.model + ":" + k.name);
      if (share > kHotShare && serial / k.seconds < kWantedFraction) below_serial.push_back(e.model + ":" + k.name);
    }
  }
  int hot = 0;
  for (const EpochProfile& e : epochs) {
    for (const auto& [op, t] : e.ops) {
      if (t.seconds() <= kHotShare * e.epoch_seconds) continue;
      ++hot;
      const std::string& name = op;  // a structured binding cannot be captured (C++17)
      const bool modelled =
          std::any_of(kernels.begin(), kernels.end(), [&](const KernelTiming& k) { return k.op == name; });
      if (!modelled) unmodelled.push_back(e.model + ":" + name);
    }
  }
  auto list = [](const std::vector<std::string>& v) {
    std::string s;
    for (const std::string& x : v) s += (s.empty() ? "" : ",") + x;
    return s.empty() ? std::string("none") : s;
  };
  out << "hot_operations=" << hot << "\nhot_kernels_below_" << std::lround(kWantedFraction * 100)
      << "pct_of_bound=" << list(below) << "\nhot_kernels_below_" << std::lround(kWantedFraction * 100)
      << "pct_of_serial=" << list(below_serial) << "\nhot_operations_without_kernel=" << list(unmodelled) << "\n";
  LDPGRAPH_RETURN_IF_ERROR(WriteChart(o.svg, limits, kernels));
  out << "svg=" << o.svg << "\n";
  return Status::Ok();
}

}  // namespace ldpgraph
