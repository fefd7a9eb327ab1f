// Tape operations over a graph: neighbourhood aggregation by a sparse or
// block-diagonal matrix, and pooling rows into groups.
#include "engine/tape.h"

#include <vector>

#include "engine/kernels/kernel_table.h"

namespace ldpgraph {

Tape::Var Tape::Aggregate(const SparseMatrix* a, const SparseMatrix* a_t, Var x) {
  const GatherPrecision p = gathers_;
  return AggregateBy([a, p](const Matrix& v, Matrix* y) { SpMM(*a, v, y, p); },
                     [a_t, p](const Matrix& g, Matrix* y) { SpMM(*a_t, g, y, p); }, x);
}

Tape::Var Tape::AggregateSteps(const SparseMatrix* a, const SparseMatrix* a_t, Var x, int steps, Matrix* known) {
  if (steps == 0) return x;
  const GatherPrecision p = gathers_;
  auto repeated = [steps, p](const SparseMatrix* m) {
    return [m, steps, p](const Matrix& v, Matrix* y) {
      SpMM(*m, v, y, p);
      Matrix next;
      for (int k = 1; k < steps; ++k) {
        SpMM(*m, *y, &next, p);
        y->swap(next);
      }
    };
  };
  if (known != nullptr && known->size() > 0) {
    return AggregateBy([known](const Matrix&, Matrix* y) { *y = std::move(*known); }, repeated(a_t), x);
  }
  return AggregateBy(repeated(a), repeated(a_t), x);
}

Tape::Var Tape::Aggregate(const BlockDiagonal* a, const BlockDiagonal* a_t, Var x) {
  // The views are copied into the closures: a batch's may not outlive the call.
  const GatherPrecision p = gathers_;
  return AggregateBy([a = *a, p](const Matrix& v, Matrix* y) { SpMM(a, v, y, p); },
                     [a_t = *a_t, p](const Matrix& g, Matrix* y) { SpMM(a_t, g, y, p); }, x);
}

Tape::Var Tape::AggregateBy(std::function<void(const Matrix&, Matrix*)> product,
                            std::function<void(const Matrix&, Matrix*)> transposed, Var x) {
  rows_separable_ = false;
  Matrix y;
  product(value(x), &y);
  Var out = Push(std::move(y), Needs(x));
  nodes_[out].backward = [this, transposed = std::move(transposed), x, out] {
    if (!Needs(x)) return;
    bool fresh = false;
    Matrix& slot = GradSlot(x, &fresh);
    if (fresh) {
      transposed(nodes_[out].grad, &slot);
      return;
    }
    Matrix gx;
    transposed(nodes_[out].grad, &gx);
    slot += gx;
  };
  return out;
}

Tape::Var Tape::Pool(const std::vector<std::int64_t>* offsets, Var x, bool mean) {
  rows_separable_ = false;
  const Matrix& in = value(x);
  const auto groups = static_cast<Eigen::Index>(offsets->size() - 1);
  Matrix y = Matrix::Zero(groups, in.cols());
  const bool parallel = in.rows() >= 4096;
#pragma omp parallel for schedule(dynamic, 1) if (parallel)
  for (Eigen::Index g = 0; g < groups; ++g) {
    const auto begin = (*offsets)[g], count = (*offsets)[g + 1] - begin;
    if (count == 0) continue;
    Kernels().column_sums(in.data() + begin * in.cols(), count, in.cols(), y.data() + g * in.cols());
    if (mean) y.row(g) /= static_cast<float>(count);
  }
  Var out = Push(std::move(y), Needs(x));
  nodes_[out].backward = [this, offsets, x, out, mean, groups] {
    if (!Needs(x)) return;
    bool fresh = false;
    Matrix& gx = GradSlot(x, &fresh);
    const Matrix& gy = nodes_[out].grad;
    const bool parallel_rows = gx.rows() >= 4096;
#pragma omp parallel for schedule(dynamic, 1) if (parallel_rows)
    for (Eigen::Index g = 0; g < groups; ++g) {
      const auto begin = (*offsets)[g], count = (*offsets)[g + 1] - begin;
      if (count == 0) continue;
      const RowVector row = mean ? RowVector(gy.row(g) / static_cast<float>(count)) : RowVector(gy.row(g));
      Kernels().broadcast_row(row.data(), count, gx.cols(), gx.data() + begin * gx.cols(), fresh);
    }
    // Rows outside every group (none when the offsets cover all rows) get no gradient.
    if (fresh && (*offsets)[groups] < gx.rows()) gx.bottomRows(gx.rows() - (*offsets)[groups]).setZero();
    if (fresh && (*offsets)[0] > 0) gx.topRows((*offsets)[0]).setZero();
  };
  return out;
}

}  // namespace ldpgraph
