#include "privacy/feature_mechanisms.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "ldpgraph/multibit.h"
#include "ldpgraph/samplers.h"
#include "util/seed_mix.h"

namespace ldpgraph {
namespace {

Result<Matrix> MultiBit(const Matrix& x, double epsilon, std::uint64_t seed) {
  MultiBitParams params;
  params.dims = static_cast<std::uint32_t>(x.cols());
  params.epsilon = epsilon;
  Result<MultiBitEncoder> encoder = MultiBitEncoder::Create(params);
  if (!encoder.ok()) return encoder.status();
  Result<MultiBitRectifier> rectifier = MultiBitRectifier::Create(params);
  if (!rectifier.ok()) return rectifier.status();
  Matrix out(x.rows(), x.cols());
  std::vector<double> row(static_cast<std::size_t>(x.cols())), estimate;
  std::vector<EncodedFeature> encoded;
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    for (Eigen::Index j = 0; j < x.cols(); ++j) row[static_cast<std::size_t>(j)] = x(i, j);
    SeededRandomSource rng(MixSeed(seed, static_cast<std::uint64_t>(i)));
    LDPGRAPH_RETURN_IF_ERROR(encoder->Encode(row, rng, &encoded));
    LDPGRAPH_RETURN_IF_ERROR(rectifier->Rectify(encoded, &estimate));
    for (Eigen::Index j = 0; j < x.cols(); ++j) out(i, j) = static_cast<float>(estimate[static_cast<std::size_t>(j)]);
  }
  return out;
}

// One bit per dimension at eps / d; unbiased: E[x'] = x.
Matrix OneBit(const Matrix& x, double epsilon, std::uint64_t seed) {
  const double e = std::exp(epsilon / static_cast<double>(x.cols()));
  Matrix out(x.rows(), x.cols());
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    SeededRandomSource rng(MixSeed(seed, static_cast<std::uint64_t>(i)));
    for (Eigen::Index j = 0; j < x.cols(); ++j) {
      const double p = 1.0 / (e + 1.0) + x(i, j) * (e - 1.0) / (e + 1.0);
      const double t = Bernoulli(rng, p) ? 1.0 : 0.0;
      out(i, j) = static_cast<float>(((e + 1.0) * t - 1.0) / (e - 1.0));
    }
  }
  return out;
}

Matrix Laplace(const Matrix& x, double epsilon, std::uint64_t seed) {
  const double scale = static_cast<double>(x.cols()) / epsilon;
  Matrix out(x.rows(), x.cols());
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    SeededRandomSource rng(MixSeed(seed, static_cast<std::uint64_t>(i)));
    for (Eigen::Index j = 0; j < x.cols(); ++j) {
      // Inverse CDF of Lap(scale) from u in (-1/2, 1/2).
      const double u = UniformUnit(rng) - 0.5;
      const double noise = -scale * std::copysign(1.0, u) * std::log1p(-2.0 * std::fabs(u));
      out(i, j) = static_cast<float>(x(i, j) + noise);
    }
  }
  return out;
}

}  // namespace

Result<FeatureMechanism> ParseFeatureMechanism(const std::string& name) {
  if (name == "mbm") return FeatureMechanism::kMultiBit;
  if (name == "1bm") return FeatureMechanism::kOneBit;
  if (name == "laplace") return FeatureMechanism::kLaplace;
  return Status::InvalidArgument("unknown feature mechanism '" + name + "' (mbm, 1bm or laplace)");
}

const char* FeatureMechanismName(FeatureMechanism mechanism) {
  switch (mechanism) {
    case FeatureMechanism::kMultiBit: return "mbm";
    case FeatureMechanism::kOneBit: return "1bm";
    case FeatureMechanism::kLaplace: return "laplace";
  }
  return "?";
}

void ScaleColumnsToUnit(Matrix* features) {
  for (Eigen::Index j = 0; j < features->cols(); ++j) {
    auto col = features->col(j);
    const float lo = col.minCoeff(), hi = col.maxCoeff();
    if (hi > lo) {
      col = (col.array() - lo) / (hi - lo);
    } else {
      col.setZero();
    }
  }
}

void ScaleColumnsToUnit(NodeFeatures* features) {
  if (!features->is_sparse()) return ScaleColumnsToUnit(features->mutable_dense());
  SparseMatrix& x = *features->mutable_sparse();
  const auto cols = static_cast<std::size_t>(x.cols);
  if (x.unit_weights()) x.values.assign(static_cast<std::size_t>(x.nnz()), 1.0f);
  std::vector<float> lo(cols, INFINITY), hi(cols, -INFINITY);
  std::vector<std::int64_t> stored(cols, 0);
  for (std::int64_t k = 0; k < x.nnz(); ++k) {
    const auto c = static_cast<std::size_t>(x.indices[k]);
    lo[c] = std::min(lo[c], x.values[k]);
    hi[c] = std::max(hi[c], x.values[k]);
    ++stored[c];
  }
  for (std::size_t c = 0; c < cols; ++c) {
    if (stored[c] == x.rows) continue;  // no unstored zero
    if (lo[c] < 0) {
      *features = NodeFeatures::Dense(ToDense(x));
      return ScaleColumnsToUnit(features->mutable_dense());
    }
    lo[c] = 0;
    hi[c] = std::max(hi[c], 0.0f);
  }
  bool unit = true;
  for (std::int64_t k = 0; k < x.nnz(); ++k) {
    const auto c = static_cast<std::size_t>(x.indices[k]);
    float& v = x.values[k];
    v = hi[c] > lo[c] ? (v - lo[c]) / (hi[c] - lo[c]) : 0.0f;
    unit = unit && v == 1.0f;
  }
  if (unit) x.values.clear();
}

Result<Matrix> PerturbFeatures(const Matrix& features, FeatureMechanism mechanism, double epsilon,
                               std::uint64_t seed) {
  if (!(epsilon > 0) || std::isinf(epsilon)) return Status::InvalidArgument("feature epsilon must be positive and finite");
  if (features.cols() == 0) return Status::InvalidArgument("the dataset has no features");
  switch (mechanism) {
    case FeatureMechanism::kMultiBit: return MultiBit(features, epsilon, seed);
    case FeatureMechanism::kOneBit: return OneBit(features, epsilon, seed);
    case FeatureMechanism::kLaplace: return Laplace(features, epsilon, seed);
  }
  return Status::InvalidArgument("unknown feature mechanism");
}

}  // namespace ldpgraph
