#include "engine/batch_norm_passes.h"

#include <vector>

#include "engine/kernels/kernel_table.h"
#include "engine/parallel.h"

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

}  // namespace ldpgraph
