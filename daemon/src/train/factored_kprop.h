// KProp and column standardisation (see NodeModelInputs) of factored
// features, S + L R before any step (engine/factored_features.h), without
// ever holding their n x d values:
//   standardise(P^k (S + L R)) = P^k (S D) + [P^k L, 1] [R D; -mean^T D]
// with D the diagonal of the columns' inverse standard deviations. Only the
// columns' means and deviations need P^k S itself: they are found a block
// of columns at a time, every requested k in one pass.
#ifndef LDPGRAPH_DAEMON_TRAIN_FACTORED_KPROP_H_
#define LDPGRAPH_DAEMON_TRAIN_FACTORED_KPROP_H_

#include <memory>
#include <vector>

#include "engine/factored_features.h"

namespace ldpgraph {

// What StandardiseColumns does to each column: (x - mean) * scale, scale
// 1/sd or 1 for a constant column (one whose spread is below 10^-5 of its
// mean: float rounding's, not the data's).
struct ColumnStandardisation {
  std::vector<double> mean, scale;
};

// Adds the standardisation of every column of `block` to `out` (sized to
// the whole width, zero where not yet found) from column `first` on: each
// column's sums over its rows in order, read row by row; only the first
// `columns` of the block (-1: all). StandardiseColumns uses it for a whole
// dense matrix.
void StandardiseBlockColumns(const Matrix& block, std::size_t first, ColumnStandardisation* out,
                             std::int64_t columns = -1);

// The standardisation of every column of P^k (S + L R), for each k of
// `steps` (increasing, >= 0), in that order. Holds n x `block_columns`
// values twice at most (0: as many columns as 32 M values allow). Requires
// x.steps == 0 and p square with x.rows() rows.
std::vector<ColumnStandardisation> PropagatedStandardisations(const FactoredFeatures& x, const SparseMatrix& p,
                                                              const std::vector<int>& steps,
                                                              std::int64_t block_columns = 0);

// PropagateFactored with the standardisation found on the way (or none),
// and the values themselves packed (FactoredFeatures::packed): one pass of
// `steps` steps over blocks of columns, as PropagatedStandardisations makes
// for one k, each block standardised and rounded into the packed rows once
// its statistics are known; `block_columns` 16, 32 or 64 (0: 64). The
// packed values take n x d x 2 bytes (d rounded up to 16). Requires
// x.steps == 0, and p square with x.rows() rows when steps > 0.
FactoredFeatures PropagatePacked(const FactoredFeatures& x, std::shared_ptr<const SparseMatrix> p,
                                 std::shared_ptr<const SparseMatrix> p_t, int steps, bool standardise,
                                 std::int64_t block_columns = 0);

// P^k (S + L R), standardised by `standardisation` unless it is null, as
// factored features (k = `steps`). Requires x.steps == 0.
FactoredFeatures PropagateFactored(const FactoredFeatures& x, std::shared_ptr<const SparseMatrix> p,
                                   std::shared_ptr<const SparseMatrix> p_t, int steps,
                                   const ColumnStandardisation* standardisation);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_TRAIN_FACTORED_KPROP_H_
