#include "privacy/feature_mechanisms.h"

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
