// Tape::LinearBatchNorm: BatchNorm(x W + b), ReLU'd or not, as one
// operation, the way GIN's MLPs use every Linear layer but the last.
//
// Apart, the two cost a pass over N x F memory for every step: the product
// writes x W + b, BatchNorm reads it back for the mean, again for the
// variance; backward, BatchNorm writes the pre-normalisation gradient that
// the Linear layer then reads three times (input gradient, weight gradient,
// bias gradient). At a batch of REDDIT-BINARY those matrices are 3.5 MB,
// larger than a core's L2, so every pass goes to L3. Here each thread walks
// its rows in sub-blocks small enough for L2: forward, the product of a
// sub-block is followed at once by both moments (one pass, shifted by the
// running mean), and backward, the pre-normalisation gradient of a
// sub-block lives only in a thread's scratch while the Linear layer's three
// gradients are taken from it. The floats differ from the two operations
// apart only by the order of sums.
#include <algorithm>
#include <memory>
#include <vector>

#include "engine/batch_norm_passes.h"
#include "engine/kernels/kernel_table.h"
#include "engine/parallel.h"
#include "engine/tall_gemm.h"
#include "engine/tape.h"

namespace ldpgraph {
namespace {

// Rows per sub-block: 256 rows of 64 floats are 64 KB, so a sub-block's
// product, its input and its gradient stay in L2 between the steps.
constexpr Eigen::Index kSubBlock = 256;

}  // namespace

Tape::Var Tape::LinearBatchNorm(Var x, Var w, Var b, Var gamma, Var beta, BatchNormStats* stats, bool relu,
                                float momentum, float eps) {
  // Outside training there are no batch statistics to fuse, and DP-SGD's
  // per-row norms need the Linear layer's own backward.
  if (!training_ || row_norms_ != nullptr) {
    return BatchNormImpl(Linear(x, w, b), gamma, beta, stats, momentum, eps, relu);
  }
  rows_separable_ = false;
  NoteParameterRead(w);
  NoteParameterRead(b);
  const Matrix& in = value(x);
  const Matrix& weight = value(w);
  const RowVector bias = value(b).row(0);
  const Eigen::Index n = in.rows(), k = in.cols(), f = weight.cols();
  if (stats->mean.size() == 0) {
    stats->mean = RowVector::Zero(f);
    stats->var = RowVector::Ones(f);
  }
  // The moments are summed around the running mean: close to this batch's,
  // so the one-pass variance loses nothing to cancellation.
  const RowVector shift = stats->mean;
  auto pre = std::make_shared<Matrix>(n, f);  // x W + b, for the backward pass
  const std::size_t threads = static_cast<std::size_t>(EngineThreads());
  std::vector<RowVector> sums(threads, RowVector::Zero(f)), squares(threads, RowVector::Zero(f));
  const bool bf16 = bf16_products_;
  ForEachRowBlock(n, [&](int t, Eigen::Index begin, Eigen::Index end) {
    for (Eigen::Index s = begin; s < end; s += kSubBlock) {
      const Eigen::Index rows = std::min(end, s + kSubBlock) - s;
      GemmOperands product{in.data() + s * k, k, 1, weight.data(), f, pre->data() + s * f, f, bias.data()};
      product.bf16 = bf16;
      TallGemm(product, rows, f, k, false);
      Kernels().shifted_moments(pre->data() + s * f, rows, f, shift.data(), sums[t].data(), squares[t].data());
    }
  });
  RowVector sum = RowVector::Zero(f), square = RowVector::Zero(f);
  for (std::size_t t = 0; t < threads; ++t) {
    sum += sums[t];
    square += squares[t];
  }
  const RowVector shifted_mean = sum / static_cast<float>(n);
  const RowVector var = (square / static_cast<float>(n) - shifted_mean.cwiseProduct(shifted_mean)).cwiseMax(0.0f);
  auto mean = std::make_shared<RowVector>(shift + shifted_mean);
  auto invstd = std::make_shared<RowVector>((var.array() + eps).rsqrt());
  UpdateRunningStats(*mean, var, n, momentum, stats);
  Var out = Push(NormaliseAll(*pre, *mean, *invstd, value(gamma).row(0), value(beta).row(0), relu),
                 Needs(x) || Needs(w) || Needs(b) || Needs(gamma) || Needs(beta));
  nodes_[out].backward = [this, x, w, b, gamma, beta, out, pre, mean, invstd, relu] {
    Matrix& gy = nodes_[out].grad;
    const Eigen::Index rows = gy.rows(), cols = gy.cols();
    RowVector sum_g, sum_gx;
    OutputGradientSums(&gy, value(out), *pre, *mean, *invstd, relu, &sum_g, &sum_gx);
    if (Needs(gamma)) GradOf(gamma) += sum_gx;
    if (Needs(beta)) GradOf(beta) += sum_g;
    const bool need_x = Needs(x), need_w = Needs(w), need_b = Needs(b);
    if (!need_x && !need_w && !need_b) return;
    // d(pre) = gamma invstd (g - mean(g) - xhat mean(g xhat)), then the
    // Linear layer's gradients from it, a sub-block at a time.
    const RowVector scale = invstd->cwiseProduct(value(gamma).row(0));
    const RowVector mean_g = sum_g / static_cast<float>(rows);
    const RowVector mean_gx = sum_gx / static_cast<float>(rows);
    const Matrix& input = value(x);
    const Eigen::Index in_dim = input.cols();
    bool fresh_x = false;
    Matrix* gx = need_x ? &GradSlot(x, &fresh_x) : nullptr;
    const Matrix weight_t = need_x ? Matrix(value(w).transpose()) : Matrix();
    std::vector<Matrix> gw(static_cast<std::size_t>(EngineThreads()));
    std::vector<RowVector> gb(gw.size());
    ForEachRowBlock(rows, [&](int t, Eigen::Index begin, Eigen::Index end) {
      std::vector<float> scratch(static_cast<std::size_t>(kSubBlock * cols));
      if (need_w) gw[t] = Matrix::Zero(in_dim, cols);
      if (need_b) gb[t] = RowVector::Zero(cols);
      for (Eigen::Index s = begin; s < end; s += kSubBlock) {
        const Eigen::Index count = std::min(end, s + kSubBlock) - s;
        float* d = scratch.data();
        Kernels().input_gradient_rows(gy.data() + s * cols, pre->data() + s * cols, mean->data(), invstd->data(),
                                      count, cols, mean_g.data(), mean_gx.data(), scale.data(), d, true);
        if (need_b) Kernels().column_sums(d, count, cols, gb[t].data());
        if (need_x) {  // dX = d W^T
          GemmOperands product{d, cols, 1, weight_t.data(), in_dim, gx->data() + s * in_dim, in_dim};
          product.bf16 = bf16_products_;
          TallGemm(product, count, in_dim, cols, !fresh_x);
        }
        if (need_w) {  // dW += X^T d
          GemmOperands product{input.data() + s * in_dim, 1, in_dim, d, cols, gw[t].data(), cols};
          product.bf16 = bf16_products_;
          TallGemm(product, in_dim, cols, count, true);
        }
      }
    });
    for (std::size_t t = 0; t < gw.size(); ++t) {
      if (need_w && gw[t].size() != 0) GradOf(w) += gw[t];
      if (need_b && gb[t].size() != 0) GradOf(b) += gb[t];
    }
  };
  return out;
}

}  // namespace ldpgraph
