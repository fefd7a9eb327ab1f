// Per-example gradient norms without per-example gradients, for DP-SGD's
// clipping (Goodfellow, "Efficient per-example gradient computations",
// 2015). A product y = x W (+ b) whose rows never mix gives example i the
// weight gradient x_i^T g_i, an outer product, so its squared Frobenius norm
// is ||x_i||^2 ||g_i||^2, and the bias gradient g_i. Each function adds, for
// every row i, that squared norm to (*squared_norms)[i]: O(rows x (in + out))
// where forming the gradients would cost O(rows x in x out).
#ifndef LDPGRAPH_DAEMON_ENGINE_ROW_GRADIENT_NORMS_H_
#define LDPGRAPH_DAEMON_ENGINE_ROW_GRADIENT_NORMS_H_

#include <vector>

#include "engine/masked_product.h"
#include "engine/matrix.h"
#include "engine/sparse_matrix.h"

namespace ldpgraph {

// ||g_i||^2 (scaled by ||x_i||^2 unless x is null): a bias, or a weight read
// by a dense input. Requires squared_norms->size() == g.rows().
void AddRowGradientNorms(const Matrix* x, const Matrix& g, std::vector<double>* squared_norms);
// ||x_i||^2 ||g_i||^2 for a sparse x whose stored values are `values` (one
// per index; null: x's own).
void AddRowGradientNorms(const SparseMatrix& x, const float* values, const Matrix& g,
                         std::vector<double>* squared_norms);
// The same for a dense x under a dropout mask (null: none).
void AddRowGradientNorms(const MatrixView& x, const DropoutBytes* mask, const Matrix& g,
                         std::vector<double>* squared_norms);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_ENGINE_ROW_GRADIENT_NORMS_H_
