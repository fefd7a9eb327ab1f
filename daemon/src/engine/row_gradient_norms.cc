#include "engine/row_gradient_norms.h"

namespace ldpgraph {

void AddRowGradientNorms(const Matrix* x, const Matrix& g, std::vector<double>* squared_norms) {
  for (Eigen::Index i = 0; i < g.rows(); ++i) {
    const double gg = g.row(i).squaredNorm();
    (*squared_norms)[static_cast<std::size_t>(i)] += x != nullptr ? gg * x->row(i).squaredNorm() : gg;
  }
}

void AddRowGradientNorms(const SparseMatrix& x, const float* values, const Matrix& g,
                         std::vector<double>* squared_norms) {
  if (values == nullptr && !x.unit_weights()) values = x.values.data();
  for (std::int64_t i = 0; i < x.rows; ++i) {
    double xx = 0;
    for (std::int64_t k = x.offsets[i]; k < x.offsets[i + 1]; ++k) {
      const double v = values != nullptr ? values[k] : 1.0;
      xx += v * v;
    }
    (*squared_norms)[static_cast<std::size_t>(i)] += xx * g.row(i).squaredNorm();
  }
}

void AddRowGradientNorms(const MatrixView& x, const DropoutBytes* mask, const Matrix& g,
                         std::vector<double>* squared_norms) {
  if (mask == nullptr) {
    for (Eigen::Index i = 0; i < g.rows(); ++i) {
      const double gg = g.row(i).squaredNorm();  // as the Matrix form: the product in double
      (*squared_norms)[static_cast<std::size_t>(i)] += gg * x.row(i).squaredNorm();
    }
    return;
  }
  const double scale2 = static_cast<double>(mask->scale) * mask->scale;
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    const std::uint8_t* keep = mask->keep.get() + i * x.cols();
    double xx = 0;
    for (Eigen::Index j = 0; j < x.cols(); ++j) {
      if (keep[j]) xx += static_cast<double>(x(i, j)) * x(i, j);
    }
    (*squared_norms)[static_cast<std::size_t>(i)] += xx * scale2 * g.row(i).squaredNorm();
  }
}

}  // namespace ldpgraph
