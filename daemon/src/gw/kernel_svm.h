// Graph classification on a distance matrix, as the GW-LDP paper does it:
// an SVM (libsvm, C-SVC) on the precomputed kernel exp(-gamma D), which is
// indefinite for GW and used as it is (Titouan et al. 2019); C and gamma
// chosen by cross-validation on the training graphs over the paper's grids
// C in {1e-7 .. 1e7}, gamma in {2^-10 .. 2^10}. Also k nearest neighbours
// on D.
#ifndef LDPGRAPH_DAEMON_GW_KERNEL_SVM_H_
#define LDPGRAPH_DAEMON_GW_KERNEL_SVM_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include <Eigen/Core>

#include "ldpgraph/status.h"

namespace ldpgraph {

struct SvmGrid {
  std::vector<double> c, gamma;
  static SvmGrid Paper();  // 15 values of C, 21 of gamma
};

struct SvmFit {
  double c = 0, gamma = 0;
  double validation_accuracy = 0;  // the inner cross-validation's, at (c, gamma)
  double test_accuracy = 0;
};

// Grid points cross-validated so far, of all; called once per point, one
// call at a time, from any of the threads.
using SvmProgress = std::function<void(std::size_t done, std::size_t total)>;

// Trains on `train` (indices into `distances` and `labels`), choosing
// (C, gamma) by `inner_folds`-fold cross-validation on it (stratified, by
// `seed`), and tests on `test`; the grid's points share `threads` threads
// (the choice does not depend on them). On GW kernels of noisy embeddings
// the largest C cost most: libsvm's solver runs to its iteration cap there
// (IMDB-BINARY, GIN at epsilon 1: C = 1e7 took 72% of a fold's grid).
// Training graphs that coincide (rows of distances equal to rounding, as the
// summary encoder's are: ~50 points for 1,000 graphs) are one point weighted
// by their count, solved by WeightedSvm: the same SVM, on that many fewer
// variables. Without coinciding graphs it is libsvm's, bit for bit as before.
// Errors: kInvalidArgument for an index out of range, an empty train or
// test set, fewer training graphs than folds, or threads < 1.
Result<SvmFit> FitKernelSvm(const Eigen::MatrixXd& distances, const std::vector<std::uint32_t>& labels,
                            const std::vector<std::uint32_t>& train, const std::vector<std::uint32_t>& test,
                            const SvmGrid& grid, int inner_folds, std::uint64_t seed, int threads = 1,
                            const SvmProgress& progress = {});

// The majority label among graph t's k nearest training graphs (by
// distance, then index; vote ties: the smaller label).
std::uint32_t KnnPredict(const Eigen::MatrixXd& distances, const std::vector<std::uint32_t>& labels,
                         const std::vector<std::uint32_t>& train, std::uint32_t t, int k);

// The accuracy on `test` of KnnPredict.
double KnnAccuracy(const Eigen::MatrixXd& distances, const std::vector<std::uint32_t>& labels,
                   const std::vector<std::uint32_t>& train, const std::vector<std::uint32_t>& test, int k);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_GW_KERNEL_SVM_H_
