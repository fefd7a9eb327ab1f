#include "engine/masked_product.h"

#include <algorithm>

#include "engine/parallel.h"
#include "engine/tall_gemm.h"

namespace ldpgraph {
namespace {

// Rows per buffered block: about 1 MB of floats (L2-sized), at least 8.
Eigen::Index BlockRows(Eigen::Index cols) { return std::max<Eigen::Index>(8, (256 * 1024) / std::max<Eigen::Index>(cols, 1)); }

// Rows [begin, end) of M . x into `buffer` (row-major, x.cols() wide).
void DroppedRows(const MatrixView& x, const DropoutBytes& mask, Eigen::Index begin, Eigen::Index end,
                 float* __restrict buffer) {
  const std::int64_t count = static_cast<std::int64_t>(end - begin) * x.cols();
  const float* __restrict in = x.data() + begin * x.cols();
  const std::uint8_t* __restrict keep = mask.keep.get() + begin * x.cols();
  const float scale = mask.scale;
  for (std::int64_t i = 0; i < count; ++i) buffer[i] = in[i] * (scale * static_cast<float>(keep[i]));
}

}  // namespace

void MaskedProduct(const MatrixView& x, const DropoutBytes* mask, const Matrix& w, Matrix* y) {
  const Eigen::Index k = x.cols(), m = w.cols();
  y->resize(x.rows(), m);
  ForEachRowBlock(x.rows(), [&](int, Eigen::Index begin, Eigen::Index end) {
    if (mask == nullptr) {
      TallGemm({x.data() + begin * k, k, 1, w.data(), m, y->data() + begin * m, m}, end - begin, m, k, false);
      return;
    }
    const Eigen::Index step = BlockRows(k);
    std::vector<float> buffer(static_cast<std::size_t>(step * k));
    for (Eigen::Index b = begin; b < end; b += step) {
      const Eigen::Index e = std::min(end, b + step);
      DroppedRows(x, *mask, b, e, buffer.data());
      TallGemm({buffer.data(), k, 1, w.data(), m, y->data() + b * m, m}, e - b, m, k, false);
    }
  });
}

void MaskedWeightGradient(const MatrixView& x, const DropoutBytes* mask, const Matrix& g, Matrix* gw) {
  const Eigen::Index k = x.cols(), m = g.cols();
  std::vector<Matrix> partial(static_cast<std::size_t>(EngineThreads()));
  ForEachRowBlock(x.rows(), [&](int t, Eigen::Index begin, Eigen::Index end) {
    Matrix& out = partial[static_cast<std::size_t>(t)];
    out.setZero(k, m);
    const Eigen::Index step = mask == nullptr ? end - begin : BlockRows(k);
    std::vector<float> buffer(mask == nullptr ? 0 : static_cast<std::size_t>(step * k));
    for (Eigen::Index b = begin; b < end; b += step) {
      const Eigen::Index e = std::min(end, b + step);
      const float* rows = x.data() + b * k;
      if (mask != nullptr) {
        DroppedRows(x, *mask, b, e, buffer.data());
        rows = buffer.data();
      }
      // (rows)^T g_block: A = rows^T addressed in place (row stride 1, inner stride k).
      TallGemm({rows, 1, k, g.data() + b * m, m, out.data(), m}, k, m, e - b, true);
    }
  });
  *gw = Matrix::Zero(k, m);
  for (const Matrix& p : partial) {
    if (p.size() != 0) *gw += p;
  }
}

}  // namespace ldpgraph
