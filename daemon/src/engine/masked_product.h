// Products of a dense constant input under a dropout mask kept as bytes:
// (M . X) W and its weight gradient (M . X)^T G. The first layer of a node
// model on dense features (KProp'd or rectified, n x F with F in the
// thousands) would otherwise make the dropped input whole every epoch: an
// n x F allocation (fresh pages each time, as it is too large for the heap
// to keep) and a pass to fill it. Here the mask takes n x F bytes (bits
// would be smaller, but neither drawing nor applying them vectorises) and the
// dropped rows are made a block at a time in a buffer the size of a cache.
#ifndef LDPGRAPH_DAEMON_ENGINE_MASKED_PRODUCT_H_
#define LDPGRAPH_DAEMON_ENGINE_MASKED_PRODUCT_H_

#include <cstdint>
#include <memory>

#include "engine/matrix.h"

namespace ldpgraph {

// keep[i] (row-major element i) 1: the element is kept and scaled by `scale`; 0: dropped.
struct DropoutBytes {
  std::unique_ptr<std::uint8_t[]> keep;  // not zero-filled: every byte is drawn
  float scale = 1.0f;
};

// y = (M . x) w; a null mask: y = x w.
void MaskedProduct(const MatrixView& x, const DropoutBytes* mask, const Matrix& w, Matrix* y);
// gw = (M . x)^T g (x.cols() x g.cols()); a null mask: x^T g. Partial sums
// per thread, added in thread order.
void MaskedWeightGradient(const MatrixView& x, const DropoutBytes* mask, const Matrix& g, Matrix* gw);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_ENGINE_MASKED_PRODUCT_H_
