// The whole-matrix passes BatchNorm shares between its plain form
// (Tape::BatchNorm, tape.cc) and the one fused with the Linear layer before
// it (Tape::LinearBatchNorm, linear_batch_norm.cc): each splits the rows
// across threads and runs one kernel of the KernelTable over them.
#ifndef LDPGRAPH_DAEMON_ENGINE_BATCH_NORM_PASSES_H_
#define LDPGRAPH_DAEMON_ENGINE_BATCH_NORM_PASSES_H_

#include <Eigen/Core>

#include <vector>

#include "engine/matrix.h"
#include "engine/tape.h"

namespace ldpgraph {

// PyTorch's running statistics: momentum-weighted, the variance unbiased.
void UpdateRunningStats(const RowVector& mean, const RowVector& var, Eigen::Index rows, float momentum,
                        BatchNormStats* stats);

// xhat gamma + beta for every row of x, clipped at 0 when relu.
Matrix NormaliseAll(const Matrix& x, const RowVector& mean, const RowVector& invstd, const RowVector& gamma,
                    const RowVector& beta, bool relu);

// The backward pass's column sums of the output gradient and of it times
// xhat; with relu, zeroes grad in place first where the output was clipped.
void OutputGradientSums(Matrix* grad, const Matrix& out, const Matrix& x, const RowVector& mean,
                        const RowVector& invstd, bool relu, RowVector* sum_g, RowVector* sum_gx);

// ---- The forward pass of the fused operations (LinearBatchNorm,
// NormalisedMlp) ----

// Rows a thread takes at a time: 256 rows of 64 floats are 64 KB, so a
// sub-block's product, its input and its gradient stay in L2 between the
// steps. One value for both operations, so that NormalisedMlp gives
// LinearBatchNorm's floats bit for bit.
constexpr Eigen::Index kFusedSubBlock = 256;

// A normalisation's batch statistics and affine parameters, as rows.
struct Normalisation {
  RowVector mean, invstd, gamma, beta;
};

// pre = x' W + b, a sub-block at a time, each followed at once by its
// moments around the running mean (close to the batch's, so the one-pass
// variance loses nothing to cancellation); then the batch's mean and
// 1 / sqrt(var + eps) into `out`, and `stats` updated (set up when empty).
// x' is x, or with `x_norm` ReLU(x_norm(x)) made a sub-block at a time in
// a thread's scratch, never stored.
void ProductAndMoments(const Matrix& x, const Normalisation* x_norm, const Matrix& weight, const RowVector& bias,
                       bool bf16, float momentum, float eps, BatchNormStats* stats, Matrix* pre, Normalisation* out);

// The backward pass of a fused Linear layer and the training-mode
// normalisation after it, once the normalisation's sums are known: per
// sub-block, d(pre) = scale (gy - mean_g - xhat mean_gx) in a thread's
// scratch, then from it the bias gradient, dX = d W^T (into *gx, over what
// is there unless `fresh_x`; skipped when gx is null) and dW = X^T d. The
// weight and bias gradients come back per thread, in (*gw)[t], (*gb)[t].
void LinearGradientsThroughNorm(const Matrix& gy, const Matrix& pre, const Normalisation& norm,
                                const RowVector& scale, const RowVector& mean_g, const RowVector& mean_gx,
                                const Matrix& x, const Matrix& weight, bool bf16, Matrix* gx, bool fresh_x,
                                bool need_w, bool need_b, std::vector<Matrix>* gw, std::vector<RowVector>* gb);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_ENGINE_BATCH_NORM_PASSES_H_
