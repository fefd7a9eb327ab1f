// Tape operations of batch normalisation (with or without a fused ReLU).
#include "engine/tape.h"

#include <algorithm>
#include <memory>
#include <vector>

#include "engine/batch_norm_passes.h"
#include "engine/kernels/kernel_table.h"
#include "engine/parallel.h"

namespace ldpgraph {

Tape::Var Tape::BatchNorm(Var x, Var gamma, Var beta, BatchNormStats* stats, float momentum, float eps) {
  return BatchNormImpl(x, gamma, beta, stats, momentum, eps, false);
}

Tape::Var Tape::BatchNormRelu(Var x, Var gamma, Var beta, BatchNormStats* stats, float momentum, float eps) {
  return BatchNormImpl(x, gamma, beta, stats, momentum, eps, true);
}

Tape::Var Tape::BatchNormImpl(Var x, Var gamma, Var beta, BatchNormStats* stats, float momentum, float eps,
                              bool relu) {
  rows_separable_ = false;  // the statistics mix the rows
  // Fused row passes (node states are row-major): no N x F temporaries; the
  // backward pass recomputes the normalised input from x (kernel_table.h).
  const Matrix& in = value(x);
  const Eigen::Index n = in.rows(), f = in.cols();
  const KernelTable& kernels = Kernels();
  const RowVector g = value(gamma).row(0);
  const RowVector b = value(beta).row(0);
  auto invstd = std::make_shared<RowVector>(f);
  auto mean = std::make_shared<RowVector>();
  if (training_) {
    std::vector<RowVector> partial(static_cast<std::size_t>(EngineThreads()), RowVector::Zero(f));
    ForEachRowBlock(n, [&](int t, Eigen::Index begin, Eigen::Index end) {
      kernels.column_sums(in.data() + begin * f, end - begin, f, partial[t].data());
    });
    *mean = RowVector::Zero(f);
    for (const auto& p : partial) *mean += p;
    *mean /= static_cast<float>(n);
    ForEachRowBlock(n, [&](int t, Eigen::Index begin, Eigen::Index end) {
      float* acc = partial[t].data();
      const float* mu = mean->data();
      std::fill_n(acc, f, 0.0f);
      kernels.squared_deviations(in.data() + begin * f, end - begin, f, mu, acc);
    });
    RowVector var = RowVector::Zero(f);
    for (const auto& p : partial) var += p;
    var /= static_cast<float>(n);
    *invstd = (var.array() + eps).rsqrt();
    UpdateRunningStats(*mean, var, n, momentum, stats);
  } else {
    *mean = stats->mean;
    *invstd = (stats->var.array() + eps).rsqrt();
  }
  Var out = Push(NormaliseAll(in, *mean, *invstd, g, b, relu), Needs(x) || Needs(gamma) || Needs(beta));
  const bool training = training_;
  nodes_[out].backward = [this, x, gamma, beta, out, mean, invstd, training, relu] {
    // With the fused ReLU, the first pass also zeroes the gradient where the
    // output was clipped, in place, before summing it.
    Matrix& gy = nodes_[out].grad;
    const Matrix& xv = value(x);
    const Eigen::Index rows = gy.rows(), cols = gy.cols();
    RowVector sum_g, sum_gx;
    OutputGradientSums(&gy, value(out), xv, *mean, *invstd, relu, &sum_g, &sum_gx);
    if (Needs(gamma)) GradOf(gamma) += sum_gx;
    if (Needs(beta)) GradOf(beta) += sum_g;
    if (!Needs(x)) return;
    const RowVector gam = value(gamma).row(0);
    const RowVector k = invstd->cwiseProduct(gam);
    bool fresh = false;
    Matrix& gx = GradSlot(x, &fresh);
    if (!training) {
      if (fresh) gx.setZero();
      for (Eigen::Index r = 0; r < rows; ++r) gx.row(r) += gy.row(r).cwiseProduct(k);
      return;
    }
    // dx = gamma invstd (g - mean(g) - xhat mean(g xhat)), per column.
    const RowVector mean_g = sum_g / static_cast<float>(rows);
    const RowVector mean_gx = sum_gx / static_cast<float>(rows);
    ForEachRowBlock(rows, [&](int, Eigen::Index begin, Eigen::Index end) {
      Kernels().input_gradient_rows(gy.data() + begin * cols, xv.data() + begin * cols, mean->data(), invstd->data(),
                                    end - begin, cols, mean_g.data(), mean_gx.data(), k.data(),
                                    gx.data() + begin * cols, fresh);
    });
  };
  return out;
}

}  // namespace ldpgraph
