// `ldpgraph bench gin`: seconds per training epoch of GIN-0 (batch 32,
// hidden 64, 5 layers) on the 75% split of a dataset, as the PyTorch anchor
// (../shared/anchors/torch_gin.py) measures it.
#ifndef LDPGRAPH_DAEMON_BENCH_GIN_BENCH_H_
#define LDPGRAPH_DAEMON_BENCH_GIN_BENCH_H_

#include <ostream>
#include <string>

#include "ldpgraph/status.h"

namespace ldpgraph {

struct GinBenchOptions {
  std::string dataset;
  int epochs = 3;
  int threads = 0;  // 0: all cores
  bool bf16_products = false;  // GraphTrainOptions::bf16_products
  bool colour_classes = true;  // GinModel::ShareColourClasses
};

// Prints epoch_seconds= (median), epoch_seconds_min=, threads=, peak_rss_mb=,
// the rows the layers run on against the nodes (class_rows_share=, 1 on
// the node path), and the Linear layers' flops per epoch on those rows
// against the cores' multiply-add peak (linear_gflop_per_epoch=,
// node_path_gflop_per_epoch=, linear_gflops=, fma_peak_gflops=,
// linear_share_of_peak=), and with
// bfloat16 products against the tile peak too (bf16_tile_peak_gflops=,
// linear_share_of_bf16_peak=); products= says which ran.
Status RunGinBench(const GinBenchOptions& options, std::ostream& out);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_BENCH_GIN_BENCH_H_
