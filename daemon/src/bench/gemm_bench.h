// `ldpgraph bench gemm`: how close the Linear layers' products come to what
// one core can do. Times TallGemm on the GNNs' shapes (n x 64 node states
// times a 64 x 64 weight, and the weight gradient X^T G over the n rows)
// against a loop of independent fused multiply-adds at the vector width the
// kernels use, and, where the CPU has AMX, the same products with bfloat16
// inputs (GemmOperands::bf16) against a loop of independent tile products.
// Everything runs on one thread and is timed by that thread's
// CPU time, so other work on the machine does not skew the ratio.
#ifndef LDPGRAPH_DAEMON_BENCH_GEMM_BENCH_H_
#define LDPGRAPH_DAEMON_BENCH_GEMM_BENCH_H_

#include <cstdint>
#include <ostream>

#include "ldpgraph/status.h"

namespace ldpgraph {

struct GemmBenchOptions {
  std::int64_t rows = 20000;  // n: about the nodes of 50 REDDIT-BINARY graphs, a batch
  double seconds = 1.0;       // CPU time spent on each measurement
};

// Prints rows=, forward_gflops=, weight_gradient_gflops=, fma_peak_gflops=,
// each product's share of that peak, and bf16_tile_peak_gflops=,
// forward_bf16_gflops= and weight_gradient_bf16_gflops= (or "unsupported").
// Then the models' product shapes (the GIN's 64 -> 64 and its weight
// gradient, a last layer's 16 -> 4 and its gradient, a dense bag-of-words
// input's 512 -> 16) by the engine, Eigen, and OpenBLAS and BLIS where
// installed (gemm_<shape>_<library>_gflops=, gemm_<shape>_fastest=).
Status RunGemmBench(const GemmBenchOptions& options, std::ostream& out);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_BENCH_GEMM_BENCH_H_
