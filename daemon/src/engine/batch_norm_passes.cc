#include "engine/batch_norm_passes.h"

#include <algorithm>
#include <vector>

#include "engine/kernels/kernel_table.h"
#include "engine/parallel.h"
#include "engine/tall_gemm.h"

namespace ldpgraph {

void UpdateRunningStats(const RowVector& mean, const RowVector& var, Eigen::Index rows, float momentum,
                        BatchNormStats* stats) {
  if (stats->mean.size() == 0) {
    stats->mean = RowVector::Zero(mean.size());
    stats->var = RowVector::Ones(mean.size());
  }
  const float unbias = rows > 1 ? static_cast<float>(rows) / static_cast<float>(rows - 1) : 1.0f;
  stats->mean = (1.0f - momentum) * stats->mean + momentum * mean;
  stats->var = (1.0f - momentum) * stats->var + momentum * unbias * var;
}

Matrix NormaliseAll(const Matrix& x, const RowVector& mean, const RowVector& invstd, const RowVector& gamma,
                    const RowVector& beta, bool relu) {
  const Eigen::Index f = x.cols();
  Matrix y(x.rows(), f);
  ForEachRowBlock(x.rows(), [&](int, Eigen::Index begin, Eigen::Index end) {
    Kernels().normalise_rows(x.data() + begin * f, end - begin, f, mean.data(), invstd.data(), gamma.data(),
                             beta.data(), y.data() + begin * f, relu);
  });
  return y;
}

void OutputGradientSums(Matrix* grad, const Matrix& out, const Matrix& x, const RowVector& mean,
                        const RowVector& invstd, bool relu, RowVector* sum_g, RowVector* sum_gx) {
  const Eigen::Index cols = grad->cols();
  const std::size_t threads = static_cast<std::size_t>(EngineThreads());
  std::vector<RowVector> part_g(threads, RowVector::Zero(cols)), part_gx(threads, RowVector::Zero(cols));
  ForEachRowBlock(grad->rows(), [&](int t, Eigen::Index begin, Eigen::Index end) {
    Kernels().gradient_sums(grad->data() + begin * cols, out.data() + begin * cols, x.data() + begin * cols,
                            mean.data(), invstd.data(), end - begin, cols, part_g[t].data(), part_gx[t].data(), relu);
  });
  *sum_g = RowVector::Zero(cols);
  *sum_gx = RowVector::Zero(cols);
  for (std::size_t t = 0; t < threads; ++t) {
    *sum_g += part_g[t];
    *sum_gx += part_gx[t];
  }
}

void ProductAndMoments(const Matrix& x, const Normalisation* x_norm, const Matrix& weight, const RowVector& bias,
                       bool bf16, float momentum, float eps, BatchNormStats* stats, Matrix* pre, Normalisation* out) {
  const Eigen::Index n = x.rows(), k = x.cols(), f = weight.cols();
  if (stats->mean.size() == 0) {
    stats->mean = RowVector::Zero(f);
    stats->var = RowVector::Ones(f);
  }
  const RowVector shift = stats->mean;
  pre->resize(n, f);
  const std::size_t threads = static_cast<std::size_t>(EngineThreads());
  std::vector<RowVector> sums(threads, RowVector::Zero(f)), squares(threads, RowVector::Zero(f));
  const KernelTable& kernels = Kernels();
  ForEachRowBlock(n, [&](int t, Eigen::Index begin, Eigen::Index end) {
    std::vector<float> normalised(x_norm != nullptr ? static_cast<std::size_t>(kFusedSubBlock * k) : 0);
    for (Eigen::Index s = begin; s < end; s += kFusedSubBlock) {
      const Eigen::Index rows = std::min(end, s + kFusedSubBlock) - s;
      const float* input = x.data() + s * k;
      if (x_norm != nullptr) {
        kernels.normalise_rows(input, rows, k, x_norm->mean.data(), x_norm->invstd.data(), x_norm->gamma.data(),
                               x_norm->beta.data(), normalised.data(), true);
        input = normalised.data();
      }
      GemmOperands product{input, k, 1, weight.data(), f, pre->data() + s * f, f, bias.data()};
      product.bf16 = bf16;
      TallGemm(product, rows, f, k, false);
      kernels.shifted_moments(pre->data() + s * f, rows, f, shift.data(), sums[t].data(), squares[t].data());
    }
  });
  RowVector sum = RowVector::Zero(f), square = RowVector::Zero(f);
  for (std::size_t t = 0; t < threads; ++t) {
    sum += sums[t];
    square += squares[t];
  }
  const RowVector shifted_mean = sum / static_cast<float>(n);
  const RowVector var = (square / static_cast<float>(n) - shifted_mean.cwiseProduct(shifted_mean)).cwiseMax(0.0f);
  out->mean = shift + shifted_mean;
  out->invstd = (var.array() + eps).rsqrt();
  UpdateRunningStats(out->mean, var, n, momentum, stats);
}

void LinearGradientsThroughNorm(const Matrix& gy, const Matrix& pre, const Normalisation& norm,
                                const RowVector& scale, const RowVector& mean_g, const RowVector& mean_gx,
                                const Matrix& x, const Matrix& weight, bool bf16, Matrix* gx, bool fresh_x,
                                bool need_w, bool need_b, std::vector<Matrix>* gw, std::vector<RowVector>* gb) {
  const Eigen::Index rows = gy.rows(), cols = gy.cols(), in_dim = x.cols();
  const Matrix weight_t = gx != nullptr ? Matrix(weight.transpose()) : Matrix();
  gw->assign(static_cast<std::size_t>(EngineThreads()), Matrix());
  gb->assign(gw->size(), RowVector());
  const KernelTable& kernels = Kernels();
  ForEachRowBlock(rows, [&](int t, Eigen::Index begin, Eigen::Index end) {
    std::vector<float> scratch(static_cast<std::size_t>(kFusedSubBlock * cols));
    if (need_w) (*gw)[t] = Matrix::Zero(in_dim, cols);
    if (need_b) (*gb)[t] = RowVector::Zero(cols);
    for (Eigen::Index s = begin; s < end; s += kFusedSubBlock) {
      const Eigen::Index count = std::min(end, s + kFusedSubBlock) - s;
      float* d = scratch.data();
      kernels.input_gradient_rows(gy.data() + s * cols, pre.data() + s * cols, norm.mean.data(), norm.invstd.data(),
                                  count, cols, mean_g.data(), mean_gx.data(), scale.data(), d, true);
      if (need_b) kernels.column_sums(d, count, cols, (*gb)[t].data());
      if (gx != nullptr) {  // dX = d W^T
        GemmOperands product{d, cols, 1, weight_t.data(), in_dim, gx->data() + s * in_dim, in_dim};
        product.bf16 = bf16;
        TallGemm(product, count, in_dim, cols, !fresh_x);
      }
      if (need_w) {  // dW += X^T d
        GemmOperands product{x.data() + s * in_dim, 1, in_dim, d, cols, (*gw)[t].data(), cols};
        product.bf16 = bf16;
        TallGemm(product, in_dim, cols, count, true);
      }
    }
  });
}

}  // namespace ldpgraph
