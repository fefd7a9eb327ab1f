// The whole-matrix passes BatchNorm shares between its plain form
// (Tape::BatchNorm, tape.cc) and the one fused with the Linear layer before
// it (Tape::LinearBatchNorm, linear_batch_norm.cc): each splits the rows
// across threads and runs one kernel of the KernelTable over them.
#ifndef LDPGRAPH_DAEMON_ENGINE_BATCH_NORM_PASSES_H_
#define LDPGRAPH_DAEMON_ENGINE_BATCH_NORM_PASSES_H_

#include <Eigen/Core>

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

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_ENGINE_BATCH_NORM_PASSES_H_
