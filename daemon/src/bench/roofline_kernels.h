// The engine's hot kernels at the shapes the node and graph models run
// them, each timed through the tape operation an epoch calls and put
// against what it must at least move and compute (KernelCost). The bound
// of a kernel is the longest of its compute time at the all-thread
// multiply-add peak and its memory time: the bytes it streams at the
// stream rates plus the random lines it gathers at the gather rate for the
// footprint they come from (MachineLimits). Forward passes only; an
// epoch's backward passes are the same kernels transposed (a neighbour
// sum's is a neighbour sum) or elementwise ones of the same kind.
#ifndef LDPGRAPH_DAEMON_BENCH_ROOFLINE_KERNELS_H_
#define LDPGRAPH_DAEMON_BENCH_ROOFLINE_KERNELS_H_

#include <algorithm>
#include <string>
#include <vector>

#include "bench/machine_limits.h"
#include "engine/node_features.h"
#include "graph/graph_batch.h"

namespace ldpgraph {

// What a kernel must at least do. Written bytes count twice (the line is
// read for ownership, then written); a gathered row costs a random line,
// whose 32-bit index is part of the gather rate's measured cost, and the
// rest of a row wider than a line streams after it.
struct KernelCost {
  double flops = 0;  // a multiply-add counts 2
  double read_bytes = 0;
  double written_bytes = 0;
  double random_lines = 0;
  double footprint_bytes = 0;  // what the random lines come from
  double libm_exps = 0;        // on every thread
  double libm_logs = 0;        // on every thread
  double dropout_draws = 0;    // on every thread

  // Multiply-adds at the all-thread peak, libm's calls and dropout's draws on every thread.
  double ComputeSeconds(const MachineLimits& m) const {
    return flops / m.fma_flops_all + libm_exps / (m.libm_exps_per_second * m.threads) +
           libm_logs / (m.libm_logs_per_second * m.threads) +
           dropout_draws / (m.dropout_draws_per_second * m.threads);
  }
  double MemorySeconds(const MachineLimits& m) const;
  double BoundSeconds(const MachineLimits& m) const;
  // Flops per byte moved, a random line counting its 64 bytes.
  double Intensity() const;
};

struct KernelTiming {
  std::string name;   // e.g. "neighbour_sum_w16"
  std::string op;     // the tape operation it is, as OpProfile names it ("AggregateBy/16")
  std::string shape;  // e.g. "1000000x16, 15998806 entries, bf16 rows"
  KernelCost cost;
  double seconds = 0;  // best of repeats
  // For a kernel that streams an operand from memory: that operand read
  // alone by every thread, timed just before each repeat of the kernel,
  // best of them (0 where not measured). This machine's memory rate swings
  // with its neighbours' load from one minute to the next, so a stream rate
  // measured once, earlier, can set a bound the kernel could not reach.
  double paired_stream_seconds = 0;

  // The cost's bound, or the paired stream's time where that is longer.
  double BoundSeconds(const MachineLimits& m) const { return std::max(cost.BoundSeconds(m), paired_stream_seconds); }
  // The time the kernel would take at the machine's rates if its computing
  // and its memory traffic did not overlap at all: their sum. Not a bound
  // but a yardstick: a kernel near it and far from BoundSeconds is made of
  // phases that each run at their rate one after another (the GIN MLP's
  // products in L2, then its normalisations streaming from L3); one far
  // from both is slow at what it does.
  double SerialSeconds(const MachineLimits& m) const {
    return cost.ComputeSeconds(m) + std::max(cost.MemorySeconds(m), paired_stream_seconds);
  }
};

// The bound: the longer of the compute and memory times.
// The shapes: a node graph prepared for GCN (its agg), sparse node features
// (the first layer's sparse input), and the GIN's batch rows and width.
struct KernelShapes {
  const PreparedGraph* graph = nullptr;
  const SparseMatrix* features = nullptr;
  int hidden = 16;
  int classes = 4;
  std::vector<int> sum_widths = {4, 16};  // over `graph`: the node models' widths
  // The GIN's: a batch of graphs of `gin_graph_nodes` users with `gin_degree`
  // friends each on average, `gin_rows` users in all (50 REDDIT-BINARY graphs).
  std::vector<int> gin_sum_widths = {64, 128};
  std::int64_t gin_rows = 20000;
  std::int64_t gin_graph_nodes = 430;
  double gin_degree = 2.3;
  int gin_width = 64;
};

// Times every kernel for about `seconds` each.
std::vector<KernelTiming> TimeKernels(const KernelShapes& shapes, double seconds);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_BENCH_ROOFLINE_KERNELS_H_
