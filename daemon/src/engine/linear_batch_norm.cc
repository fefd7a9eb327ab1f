// Tape::LinearBatchNorm: BatchNorm(x W + b), ReLU'd or not, as one
// operation, the way GIN follows each Linear layer of its MLPs (two of them
// in a row are Tape::NormalisedMlp, normalised_mlp.cc).
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
#include <memory>
#include <vector>

#include "engine/batch_norm_passes.h"
#include "engine/tape.h"

namespace ldpgraph {

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
  auto pre = std::make_shared<Matrix>();  // x W + b, for the backward pass
  auto norm = std::make_shared<Normalisation>();
  ProductAndMoments(value(x), nullptr, value(w), value(b).row(0), bf16_products_, momentum, eps, stats, pre.get(),
                    norm.get());
  Var out = Push(NormaliseAll(*pre, norm->mean, norm->invstd, value(gamma).row(0), value(beta).row(0), relu),
                 Needs(x) || Needs(w) || Needs(b) || Needs(gamma) || Needs(beta));
  nodes_[out].backward = [this, x, w, b, gamma, beta, out, pre, norm, relu] {
    Matrix& gy = nodes_[out].grad;
    const Eigen::Index rows = gy.rows();
    RowVector sum_g, sum_gx;
    OutputGradientSums(&gy, value(out), *pre, norm->mean, norm->invstd, relu, &sum_g, &sum_gx);
    if (Needs(gamma)) GradOf(gamma) += sum_gx;
    if (Needs(beta)) GradOf(beta) += sum_g;
    const bool need_x = Needs(x), need_w = Needs(w), need_b = Needs(b);
    if (!need_x && !need_w && !need_b) return;
    // d(pre) = gamma invstd (g - mean(g) - xhat mean(g xhat)), then the
    // Linear layer's gradients from it, a sub-block at a time.
    const RowVector scale = norm->invstd.cwiseProduct(value(gamma).row(0));
    const RowVector mean_g = sum_g / static_cast<float>(rows);
    const RowVector mean_gx = sum_gx / static_cast<float>(rows);
    bool fresh_x = false;
    Matrix* gx = need_x ? &GradSlot(x, &fresh_x) : nullptr;
    std::vector<Matrix> gw;
    std::vector<RowVector> gb;
    LinearGradientsThroughNorm(gy, *pre, *norm, scale, mean_g, mean_gx, value(x), value(w), bf16_products_, gx,
                               fresh_x, need_w, need_b, &gw, &gb);
    for (std::size_t t = 0; t < gw.size(); ++t) {
      if (need_w && gw[t].size() != 0) GradOf(w) += gw[t];
      if (need_b && gb[t].size() != 0) GradOf(b) += gb[t];
    }
  };
  return out;
}

}  // namespace ldpgraph
