// Tape::NormalisedMlp: ReLU(BN(ReLU(BN(x W1 + b1)) W2 + b2)), GIN's MLP with
// the layer's own normalisation after it, as one operation.
//
// Two LinearBatchNorms in a row (linear_batch_norm.cc) already keep each
// Linear layer's steps within L2; what is left between them is the hidden
// activation y1 = ReLU(BN(pre1)): written whole, read back by the second
// product, and read twice more backward (the second weight gradient, and
// the first normalisation's ReLU mask). Here y1 never reaches memory: each
// sub-block of it is made again from pre1 in a thread's scratch where it is
// needed, and backward the first normalisation's sums are taken from each
// sub-block of its output gradient while that is still in L2. The floats
// are those of the two LinearBatchNorms, bit for bit (the same sub-blocks,
// kernels and order of sums).
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

// Column sums of per-thread partials.
RowVector Total(const std::vector<RowVector>& parts) {
  RowVector sum = RowVector::Zero(parts.front().size());
  for (const RowVector& p : parts) sum += p;
  return sum;
}

}  // namespace

Tape::Var Tape::NormalisedMlp(Var x, const NormalisedLinear& first, const NormalisedLinear& second, float momentum,
                              float eps) {
  if (!training_ || row_norms_ != nullptr) {
    const Var hidden = LinearBatchNorm(x, first.w, first.b, first.gamma, first.beta, first.stats, true, momentum, eps);
    return LinearBatchNorm(hidden, second.w, second.b, second.gamma, second.beta, second.stats, true, momentum, eps);
  }
  rows_separable_ = false;
  for (Var p : {first.w, first.b, second.w, second.b}) NoteParameterRead(p);
  auto pre1 = std::make_shared<Matrix>();  // x W1 + b1
  auto pre2 = std::make_shared<Matrix>();  // y1 W2 + b2
  auto norm1 = std::make_shared<Normalisation>();
  auto norm2 = std::make_shared<Normalisation>();
  norm1->gamma = value(first.gamma).row(0);
  norm1->beta = value(first.beta).row(0);
  norm2->gamma = value(second.gamma).row(0);
  norm2->beta = value(second.beta).row(0);
  ProductAndMoments(value(x), nullptr, value(first.w), value(first.b).row(0), bf16_products_, momentum, eps,
                    first.stats, pre1.get(), norm1.get());
  // y1 = ReLU(BN1(pre1)) made a sub-block at a time for the second product.
  ProductAndMoments(*pre1, norm1.get(), value(second.w), value(second.b).row(0), bf16_products_, momentum, eps,
                    second.stats, pre2.get(), norm2.get());
  Var out = Push(NormaliseAll(*pre2, norm2->mean, norm2->invstd, norm2->gamma, norm2->beta, true),
                 Needs(x) || Needs(first.w) || Needs(first.b) || Needs(first.gamma) || Needs(first.beta) ||
                     Needs(second.w) || Needs(second.b) || Needs(second.gamma) || Needs(second.beta));
  nodes_[out].backward = [this, x, first, second, out, pre1, pre2, norm1, norm2] {
    const KernelTable& kern = Kernels();
    Matrix& gy = nodes_[out].grad;
    const Eigen::Index rows = gy.rows(), h1 = pre1->cols(), h2 = pre2->cols();
    const std::size_t workers = static_cast<std::size_t>(EngineThreads());

    // The second normalisation: its sums over the whole batch first.
    RowVector sum_g, sum_gx;
    OutputGradientSums(&gy, value(out), *pre2, norm2->mean, norm2->invstd, true, &sum_g, &sum_gx);
    if (Needs(second.gamma)) GradOf(second.gamma) += sum_gx;
    if (Needs(second.beta)) GradOf(second.beta) += sum_g;
    const RowVector scale2 = norm2->invstd.cwiseProduct(norm2->gamma);
    const RowVector mean_g2 = sum_g / static_cast<float>(rows), mean_gx2 = sum_gx / static_cast<float>(rows);

    // Then per sub-block: d2 = d(pre2), the second layer's gradients, and the
    // first normalisation's output gradient, masked and summed while in L2.
    Matrix gy1(rows, h1);
    const Matrix w2_t = value(second.w).transpose();
    std::vector<Matrix> gw(workers);
    std::vector<RowVector> gb(workers), part_g(workers, RowVector::Zero(h1)), part_gx(workers, RowVector::Zero(h1));
    ForEachRowBlock(rows, [&](int t, Eigen::Index begin, Eigen::Index end) {
      std::vector<float> d(static_cast<std::size_t>(kFusedSubBlock * h2));
      std::vector<float> y1(static_cast<std::size_t>(kFusedSubBlock * h1));
      gw[t] = Matrix::Zero(h1, h2);
      gb[t] = RowVector::Zero(h2);
      for (Eigen::Index s = begin; s < end; s += kFusedSubBlock) {
        const Eigen::Index count = std::min(end, s + kFusedSubBlock) - s;
        kern.input_gradient_rows(gy.data() + s * h2, pre2->data() + s * h2, norm2->mean.data(), norm2->invstd.data(),
                                 count, h2, mean_g2.data(), mean_gx2.data(), scale2.data(), d.data(), true);
        kern.column_sums(d.data(), count, h2, gb[t].data());
        kern.normalise_rows(pre1->data() + s * h1, count, h1, norm1->mean.data(), norm1->invstd.data(),
                            norm1->gamma.data(), norm1->beta.data(), y1.data(), true);
        GemmOperands weight_gradient{y1.data(), 1, h1, d.data(), h2, gw[t].data(), h2};
        weight_gradient.bf16 = bf16_products_;
        TallGemm(weight_gradient, h1, h2, count, true);
        GemmOperands input_gradient{d.data(), h2, 1, w2_t.data(), h1, gy1.data() + s * h1, h1};
        input_gradient.bf16 = bf16_products_;
        TallGemm(input_gradient, count, h1, h2, false);
        kern.gradient_sums(gy1.data() + s * h1, y1.data(), pre1->data() + s * h1, norm1->mean.data(),
                           norm1->invstd.data(), count, h1, part_g[t].data(), part_gx[t].data(), true);
      }
    });
    for (std::size_t t = 0; t < workers; ++t) {
      if (gw[t].size() == 0) continue;
      if (Needs(second.w)) GradOf(second.w) += gw[t];
      if (Needs(second.b)) GradOf(second.b) += gb[t];
    }
    sum_g = Total(part_g);
    sum_gx = Total(part_gx);
    if (Needs(first.gamma)) GradOf(first.gamma) += sum_gx;
    if (Needs(first.beta)) GradOf(first.beta) += sum_g;
    const RowVector scale1 = norm1->invstd.cwiseProduct(norm1->gamma);
    const RowVector mean_g1 = sum_g / static_cast<float>(rows), mean_gx1 = sum_gx / static_cast<float>(rows);

    // The first layer's gradients, as LinearBatchNorm takes them.
    const bool need_x = Needs(x);
    bool fresh_x = false;
    Matrix* gx = need_x ? &GradSlot(x, &fresh_x) : nullptr;
    LinearGradientsThroughNorm(gy1, *pre1, *norm1, scale1, mean_g1, mean_gx1, value(x), value(first.w),
                               bf16_products_, gx, fresh_x, true, true, &gw, &gb);
    for (std::size_t t = 0; t < workers; ++t) {
      if (gw[t].size() == 0) continue;
      if (Needs(first.w)) GradOf(first.w) += gw[t];
      if (Needs(first.b)) GradOf(first.b) += gb[t];
    }
  };
  return out;
}

}  // namespace ldpgraph
