// Tape::WeightedBatchNorm: BatchNorm over rows that stand for several equal
// rows each (a colour class and its members, graph/colour_classes.h).
//
// Expanded, row r would appear w_r times. Its statistics are then
//   mean = sum_r w_r x_r / W,  var = sum_r w_r (x_r - mean)^2 / W,  W = sum_r w_r,
// and the gradient reaching row r is already the sum g_r of its copies'
// output gradients. Summing BatchNorm's input gradient over the copies,
//   dx_r = gamma invstd (g_r - w_r mean(g) - w_r xhat_r mean(g xhat)),
// with mean(g) = sum_r g_r / W and mean(g xhat) = sum_r g_r xhat_r / W:
// the plain backward with the two mean terms scaled by the row's weight.
#include <cassert>
#include <memory>
#include <vector>

#include "engine/batch_norm_passes.h"
#include "engine/parallel.h"
#include "engine/tape.h"

namespace ldpgraph {

Tape::Var Tape::WeightedBatchNorm(Var x, Var gamma, Var beta, BatchNormStats* stats,
                                  const std::vector<float>* weights, bool relu, float momentum, float eps) {
  if (!training_) return BatchNormImpl(x, gamma, beta, stats, momentum, eps, relu);
  rows_separable_ = false;
  const Matrix& in = value(x);
  const Eigen::Index n = in.rows(), f = in.cols();
  assert(static_cast<Eigen::Index>(weights->size()) == n);
  const float* w = weights->data();
  double total = 0;
  for (float weight : *weights) total += weight;
  const auto count = static_cast<float>(total);

  // Two passes (mean, then squared deviations), per-thread partials added in thread order.
  std::vector<RowVector> partial(static_cast<std::size_t>(EngineThreads()));
  auto mean = std::make_shared<RowVector>(RowVector::Zero(f));
  ForEachRowBlock(n, [&](int t, Eigen::Index begin, Eigen::Index end) {
    RowVector& acc = partial[static_cast<std::size_t>(t)];
    acc = RowVector::Zero(f);
    for (Eigen::Index r = begin; r < end; ++r) acc += w[r] * in.row(r);
  });
  for (const RowVector& p : partial) {
    if (p.size() != 0) *mean += p;
  }
  *mean /= count;
  ForEachRowBlock(n, [&](int t, Eigen::Index begin, Eigen::Index end) {
    RowVector& acc = partial[static_cast<std::size_t>(t)];
    acc = RowVector::Zero(f);
    for (Eigen::Index r = begin; r < end; ++r) acc += w[r] * (in.row(r) - *mean).cwiseAbs2();
  });
  RowVector var = RowVector::Zero(f);
  for (const RowVector& p : partial) {
    if (p.size() != 0) var += p;
  }
  var /= count;
  auto invstd = std::make_shared<RowVector>((var.array() + eps).rsqrt().matrix());
  UpdateRunningStats(*mean, var, static_cast<Eigen::Index>(total + 0.5), momentum, stats);

  const RowVector g = value(gamma).row(0);
  const RowVector b = value(beta).row(0);
  Var out = Push(NormaliseAll(in, *mean, *invstd, g, b, relu), Needs(x) || Needs(gamma) || Needs(beta));
  nodes_[out].backward = [this, x, gamma, beta, out, mean, invstd, weights, count, relu] {
    Matrix& gy = nodes_[out].grad;
    const Matrix& xv = value(x);
    RowVector sum_g, sum_gx;
    OutputGradientSums(&gy, value(out), xv, *mean, *invstd, relu, &sum_g, &sum_gx);
    if (Needs(gamma)) GradOf(gamma) += sum_gx;
    if (Needs(beta)) GradOf(beta) += sum_g;
    if (!Needs(x)) return;
    const RowVector k = invstd->cwiseProduct(value(gamma).row(0));
    const RowVector mean_g = sum_g / count, mean_gx = sum_gx / count;
    bool fresh = false;
    Matrix& gx = GradSlot(x, &fresh);
    const float* weight = weights->data();
    ForEachRowBlock(gy.rows(), [&](int, Eigen::Index begin, Eigen::Index end) {
      for (Eigen::Index r = begin; r < end; ++r) {
        // One expression, so that no row is made in memory.
        const auto xhat = (xv.row(r) - *mean).cwiseProduct(*invstd);
        const auto d = k.cwiseProduct(gy.row(r) - weight[r] * mean_g - weight[r] * xhat.cwiseProduct(mean_gx));
        if (fresh) {
          gx.row(r) = d;
        } else {
          gx.row(r) += d;
        }
      }
    });
  };
  return out;
}

}  // namespace ldpgraph
